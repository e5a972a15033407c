package devcluster

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
)

const devConfigMap = `
apiVersion: v1
kind: ConfigMap
metadata:
  name: inferenceservice-config
  namespace: kserve
data:
  deploy: '{"defaultDeploymentMode": "RawDeployment"}'
`

// TestDevCommand runs `fsmserve dev` in-process end to end: ready line,
// manifests installed, kubeconfig usable by kubectl, clean shutdown on
// cancellation with no process left behind.
func TestDevCommand(t *testing.T) {
	requireBinaries(t)
	work := t.TempDir()
	kubeconfig := filepath.Join(work, "out", "kubeconfig")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	runCalled := make(chan *rest.Config, 1)
	runReturned := make(chan struct{})
	hooks := Hooks{
		Manifests: func() ([][]byte, error) { return [][]byte{[]byte(devConfigMap)}, nil },
		Run: func(ctx context.Context, cfg *rest.Config, otlp string) error {
			defer close(runReturned)
			assert.Empty(t, otlp, "no OTLP endpoint without --jaeger")
			runCalled <- cfg
			<-ctx.Done()
			return ctx.Err()
		},
	}
	cmd := NewDevCommand(hooks)
	stdout := newLineBuffer(ReadyLine)
	cmd.SetOut(stdout)
	cmd.SetErr(logWriter{t})
	cmd.SetArgs([]string{"--work-dir", work, "--kubeconfig-out", kubeconfig, "--nodes", "2", "--gpu-nodes", "1"})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()

	select {
	case <-stdout.found:
	case err := <-done:
		t.Fatalf("dev returned before printing %q: %v", ReadyLine, err)
	case <-time.After(3 * time.Minute):
		t.Fatalf("dev did not print %q within 3 minutes; stdout:\n%s", ReadyLine, stdout)
	}
	assert.Equal(t, 1, strings.Count(stdout.String(), ReadyLine))
	assert.True(t, strings.HasSuffix(stdout.String(), "\n"+ReadyLine+"\n"), "the ready line comes last:\n%s", stdout)
	assert.Contains(t, stdout.String(), "export KUBECONFIG="+kubeconfig)
	require.NotNil(t, <-runCalled)

	nodes := kubectl(t, kubeconfig, "get", "nodes", "-o", "name")
	assert.Equal(t, "node/fsmserve-node-0\nnode/fsmserve-node-1", strings.TrimSpace(nodes))
	cm := kubectl(t, kubeconfig, "get", "configmap", "-n", "kserve", "inferenceservice-config", "-o", "jsonpath={.data.deploy}")
	assert.Contains(t, cm, "RawDeployment")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err, "a cancelled dev exits cleanly")
	case <-time.After(60 * time.Second):
		t.Fatal("dev did not stop within 60s of cancellation")
	}
	<-runReturned
	assert.Empty(t, processesMentioning(t, work), "no process of the cluster may outlive dev")
	_, err := exec.Command("/usr/bin/kubectl", "--kubeconfig", kubeconfig, "--request-timeout=2s", "get", "nodes").CombinedOutput()
	assert.Error(t, err, "the apiserver is gone")
}

func kubectl(t *testing.T, kubeconfig string, args ...string) string {
	t.Helper()
	out, err := exec.Command("/usr/bin/kubectl", append([]string{"--kubeconfig", kubeconfig}, args...)...).CombinedOutput()
	require.NoError(t, err, "kubectl %v: %s", args, out)
	return string(out)
}

// processesMentioning lists the command lines that contain s: every process
// the cluster starts has its work dir in its arguments.
func processesMentioning(t *testing.T, s string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var found []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		line := strings.ReplaceAll(string(cmdline), "\x00", " ")
		if strings.Contains(line, s) {
			found = append(found, e.Name()+": "+line)
		}
	}
	return found
}
