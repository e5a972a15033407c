package devcluster

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProcessStopSendsSIGTERM(t *testing.T) {
	logDir := t.TempDir()
	p, err := startProcess("sleeper", "/bin/sh", []string{"-c", "echo started; exec sleep 60"}, nil, logDir, logDir)
	require.NoError(t, err)
	start := time.Now()
	p.stop(5 * time.Second)
	assert.Less(t, time.Since(start), 4*time.Second, "SIGTERM alone stops sleep")
	assert.False(t, pidAlive(p.pid()))
}

func TestProcessStopEscalatesToSIGKILL(t *testing.T) {
	logDir := t.TempDir()
	// The shell ignores SIGTERM and so does the child it forks into its group.
	p, err := startProcess("stubborn", "/bin/sh", []string{"-c", "trap '' TERM; sleep 60 & wait"}, nil, logDir, logDir)
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	p.stop(500 * time.Millisecond)
	assert.GreaterOrEqual(t, time.Since(start), 500*time.Millisecond)
	assert.False(t, pidAlive(p.pid()))
	// The grandchild shared the process group and was killed with it (init
	// reaps it shortly after).
	assert.Eventually(t, func() bool { return syscall.Kill(-p.pid(), 0) != nil }, 3*time.Second, 50*time.Millisecond)
}

func TestProcessExitedEarlyQuotesLog(t *testing.T) {
	logDir := t.TempDir()
	p, err := startProcess("crasher", "/bin/sh", []string{"-c", "echo 'listen tcp 127.0.0.1:1: bind: address already in use'; exit 3"}, nil, logDir, logDir)
	require.NoError(t, err)
	err = waitFor(t.Context(), "never", 5*time.Second, []*process{p}, func(context.Context) (bool, error) { return false, nil })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "crasher exited early")
	assert.Contains(t, err.Error(), "exit status 3")
	assert.Contains(t, err.Error(), filepath.Join(logDir, "crasher.log"))
	assert.Contains(t, err.Error(), "address already in use")
	assert.Contains(t, err.Error(), "A port it needs is in use")
}

func TestStartProcessMissingBinary(t *testing.T) {
	_, err := startProcess("etcd", "/nonexistent/etcd", nil, nil, t.TempDir(), t.TempDir())
	assert.ErrorContains(t, err, "go run ./hack/ensure-assets")
}

func TestTailFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	require.NoError(t, os.WriteFile(path, []byte("1\n2\n3\n4\n"), 0o644))
	assert.Equal(t, "3\n4", tailFile(path, 2))
	assert.Equal(t, "1\n2\n3\n4", tailFile(path, 10))
	assert.Contains(t, tailFile(filepath.Join(t.TempDir(), "missing"), 2), "cannot read")
}

func pidAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }
