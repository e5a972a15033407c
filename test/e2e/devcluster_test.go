//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// devCluster is a running `fsmserve dev --jaeger`.
type devCluster struct {
	cmd        *exec.Cmd
	kubeconfig string
	output     *bytes.Buffer
}

// startDev runs the fsmserve binary built by `make build` (bin/fsmserve) the
// way a user does, with Jaeger when asked, and waits for its ready line.
func startDev(t *testing.T, jaeger bool) *devCluster {
	t.Helper()
	bin, err := filepath.Abs("../../bin/fsmserve")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s missing: run `make build` (make test-e2e does)", bin)
	}
	work := t.TempDir()
	d := &devCluster{kubeconfig: filepath.Join(work, "kubeconfig"), output: &bytes.Buffer{}}
	args := []string{"dev", "--work-dir", work, "--kubeconfig-out", d.kubeconfig}
	if jaeger {
		args = append(args, "--jaeger")
	}
	d.cmd = exec.Command(bin, args...)
	d.cmd.Dir = work
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := d.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d.cmd.Stderr = d.output
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.stop(t) })
	ready := make(chan struct{})
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			d.output.WriteString(s.Text() + "\n")
			if strings.Contains(s.Text(), "fsmserve dev: ready") {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(3 * time.Minute):
		t.Fatalf("fsmserve dev did not get ready in 3 minutes:\n%s", d.output)
	}
	return d
}

// stop sends SIGTERM, as Ctrl-C would, and checks the process exits cleanly.
func (d *devCluster) stop(t *testing.T) {
	if d.cmd.Process == nil || d.cmd.ProcessState != nil {
		return
	}
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- d.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("fsmserve dev exited with %v:\n%s", err, d.output)
		}
	case <-time.After(60 * time.Second):
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
		t.Errorf("fsmserve dev did not stop within 60s of SIGTERM")
	}
}

// kubectl runs kubectl against the dev cluster and returns its output.
func (d *devCluster) kubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+d.kubeconfig)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// kubectlErr runs kubectl and returns its output and error, for commands
// expected to fail.
func (d *devCluster) kubectlErr(stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+d.kubeconfig)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
