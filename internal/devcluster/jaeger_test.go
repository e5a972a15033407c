//go:build jaeger

// The Jaeger tests need the optional Jaeger binary:
//
//	go run ./hack/ensure-assets --jaeger
//	go test -tags jaeger ./internal/devcluster -run Jaeger
package devcluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
)

func requireJaeger(t *testing.T) Binaries {
	t.Helper()
	b := requireBinaries(t)
	if err := b.Missing(true); err != nil {
		t.Fatalf("%v\nBuild Jaeger once with `go run ./hack/ensure-assets --jaeger` (about 8 minutes on 2 cores).", err)
	}
	return b
}

// TestJaegerReceivesSpans posts a span over OTLP/HTTP and reads it back from
// Jaeger's query API.
func TestJaegerReceivesSpans(t *testing.T) {
	bins := requireJaeger(t)
	c, err := New(Options{WorkDir: t.TempDir(), Binaries: bins})
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	started := time.Now()
	endpoint, err := c.StartJaeger(t.Context())
	require.NoError(t, err)
	t.Logf("jaeger ready in %s", time.Since(started))
	assert.Equal(t, "http://127.0.0.1:4318", endpoint)

	traceID := randomHex(t, 16)
	postSpan(t, endpoint, traceID, "fsmserve-devcluster-test", "Transition")
	err = waitFor(t.Context(), "the span in Jaeger", 15*time.Second, c.running(), func(ctx context.Context) (bool, error) {
		body, err := httpGet(ctx, http.DefaultClient, JaegerUIURL+"/api/traces/"+traceID)
		return err == nil && strings.Contains(body, `"operationName":"Transition"`), err
	})
	require.NoError(t, err)
	services, err := httpGet(t.Context(), http.DefaultClient, JaegerUIURL+"/api/services")
	require.NoError(t, err)
	assert.Contains(t, services, "fsmserve-devcluster-test")

	pids := c.PIDs()
	c.Stop()
	for _, pid := range pids {
		assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "pid %d alive after Stop", pid)
	}
}

// TestDevCommandWithJaeger: --jaeger hands Run the OTLP endpoint and tells
// the user where the UI is.
func TestDevCommandWithJaeger(t *testing.T) {
	requireJaeger(t)
	work := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	gotEndpoint := make(chan string, 1)
	cmd := NewDevCommand(Hooks{Run: func(ctx context.Context, _ *rest.Config, otlp string) error {
		gotEndpoint <- otlp
		<-ctx.Done()
		return nil
	}})
	stdout := newLineBuffer(ReadyLine)
	cmd.SetOut(stdout)
	cmd.SetErr(logWriter{t})
	cmd.SetArgs([]string{"--work-dir", work, "--nodes", "1", "--gpu-nodes", "0", "--jaeger"})
	defaultKubeconfig := filepath.Join(work, "kubeconfig")
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	select {
	case <-stdout.found:
	case err := <-done:
		t.Fatalf("dev returned before ready: %v", err)
	case <-time.After(3 * time.Minute):
		t.Fatal("dev not ready within 3 minutes")
	}
	assert.Equal(t, "http://127.0.0.1:4318", <-gotEndpoint)
	assert.Contains(t, stdout.String(), "Jaeger UI: http://127.0.0.1:16686")
	assert.Contains(t, stdout.String(), "export KUBECONFIG="+defaultKubeconfig, "the kubeconfig goes into the work dir by default")
	assert.FileExists(t, defaultKubeconfig)
	cancel()
	require.NoError(t, <-done)
	assert.Empty(t, processesMentioning(t, work))
	_, err := http.Get(JaegerUIURL + "/api/services")
	assert.Error(t, err, "Jaeger stopped with the cluster")
}

func postSpan(t *testing.T, endpoint, traceID, service, name string) {
	t.Helper()
	now := time.Now()
	body := fmt.Sprintf(`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":%q}}]},`+
		`"scopeSpans":[{"scope":{"name":"devcluster-test"},"spans":[{"traceId":%q,"spanId":%q,"name":%q,"kind":1,`+
		`"startTimeUnixNano":"%d","endTimeUnixNano":"%d"}]}]}]}`,
		service, traceID, randomHex(t, 8), name, now.Add(-time.Second).UnixNano(), now.UnixNano())
	resp, err := http.Post(endpoint+"/v1/traces", "application/json", bytes.NewBufferString(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}
