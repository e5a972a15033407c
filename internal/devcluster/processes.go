package devcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// stopGrace is how long a process gets between SIGTERM and SIGKILL; etcd and
// kube-apiserver need a few seconds to shut down cleanly.
const stopGrace = 10 * time.Second

// process is one child started by the cluster, logging to its own file.
type process struct {
	name    string
	cmd     *exec.Cmd
	cancel  context.CancelFunc
	logPath string
	done    chan struct{}
	waitErr error // valid once done is closed
}

// startProcess starts bin with args, its output going to logDir/name.log.
// The child gets its own process group (so stopping it also stops anything
// it forked) and SIGKILL when this process dies (Pdeathsig), so a crashed or
// killed parent leaves no orphans.
func startProcess(name, bin string, args []string, env []string, dir, logDir string) (*process, error) {
	if !isExecutable(bin) {
		return nil, fmt.Errorf("%s binary %s is missing or not executable; %s", name, bin, ensureAssetsHint)
	}
	logPath := filepath.Join(logDir, name+".log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening log file for %s: %w", name, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// Cancelling asks politely; stop() escalates to SIGKILL after stopGrace.
	cmd.Cancel = func() error { return signalGroup(cmd.Process.Pid, syscall.SIGTERM) }
	if err := cmd.Start(); err != nil {
		cancel()
		_ = logFile.Close()
		return nil, fmt.Errorf("starting %s (%s): %w", name, bin, err)
	}
	p := &process{name: name, cmd: cmd, cancel: cancel, logPath: logPath, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		_ = logFile.Close()
		close(p.done)
	}()
	return p, nil
}

func signalGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

func (p *process) pid() int { return p.cmd.Process.Pid }

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM to the process group, SIGKILL after grace, and waits
// until the process has been reaped.
func (p *process) stop(grace time.Duration) {
	p.cancel()
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = signalGroup(p.pid(), syscall.SIGKILL)
		<-p.done
	}
	// Anything the child forked into its group and left behind.
	_ = signalGroup(p.pid(), syscall.SIGKILL)
}

// exitError describes a process that exited when it should be running,
// quoting the end of its log, where the reason is.
func (p *process) exitError() error {
	return fmt.Errorf("%s exited early (%v); last lines of %s:\n%s%s",
		p.name, p.waitErr, p.logPath, tailFile(p.logPath, 15), portHint(p.logPath))
}

func portHint(logPath string) string {
	data, _ := os.ReadFile(logPath)
	if bytes.Contains(data, []byte("address already in use")) {
		return "\nA port it needs is in use: stop whatever listens on it (`ss -ltnp`) or another fsmserve dev, then retry."
	}
	return ""
}

// tailFile returns the last n lines of a file, or a note that it cannot be read.
func tailFile(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", path, err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// waitFor polls check until it reports true, the timeout passes, ctx ends or
// one of procs exits (then its log tail is the error).
func waitFor(parent context.Context, what string, timeout time.Duration, procs []*process, check func(context.Context) (bool, error)) error {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	var lastErr error
	for {
		for _, p := range procs {
			if p.exited() {
				return p.exitError()
			}
		}
		ok, err := check(ctx)
		if ok {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			if parent.Err() != nil {
				return fmt.Errorf("waiting for %s: %w", what, parent.Err())
			}
			msg := fmt.Sprintf("timed out after %s waiting for %s", timeout, what)
			if lastErr != nil {
				msg += fmt.Sprintf(" (last error: %v)", lastErr)
			}
			for _, p := range procs {
				msg += fmt.Sprintf("\nlast lines of %s:\n%s", p.logPath, tailFile(p.logPath, 8))
			}
			return errors.New(msg)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
