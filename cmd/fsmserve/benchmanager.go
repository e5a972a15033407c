package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/internal/apicount"
	"github.com/fsmserve/fsmserve/internal/bench"
)

// The bench runs its manager in a process of its own, so that the CPU and
// memory it reports are the manager's alone: the bench's client creates
// thousands of objects (20,000 with --noise), and its garbage would count
// against the manager in one process. The manager process counts its own
// requests at its transport and answers on a loopback HTTP port:
// POST /reset starts a measurement, GET /measure reads it.

// newBenchManagerCommand is `fsmserve bench manager`, started by the bench.
func newBenchManagerCommand() *cobra.Command {
	var kubeconfig, listen string
	cmd := &cobra.Command{
		Use:    "manager",
		Short:  "The bench's manager process (started by `fsmserve bench controller`)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			ctrl.SetLogger(zap.New(zap.WriteTo(cmd.ErrOrStderr())))
			cfg, err := restConfig(kubeconfig)
			if err != nil {
				return err
			}
			log := &apicount.Log{}
			mgr, err := startBenchManager(ctx, cfg, log.Attach(cfg))
			if err != nil {
				return err
			}
			m := &measuredManager{log: log, cached: func() map[string]int { return cachedObjects(ctx, mgr) }}
			m.reset()
			return serveMeasures(ctx, listen, m)
		},
	}
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", "", "the cluster's admin kubeconfig")
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:0", "loopback address to answer /reset and /measure on")
	return cmd
}

// measuredManager is what the manager process measures since the last reset.
type measuredManager struct {
	log    *apicount.Log
	cached func() map[string]int

	mu         sync.Mutex
	cpu        time.Duration
	reconciles int
}

func (m *measuredManager) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.log.Reset()
	m.cpu, m.reconciles = bench.CPUTime(), reconcileCount("inferenceservice")
}

func (m *measuredManager) measure() bench.ManagerMeasure {
	m.mu.Lock()
	defer m.mu.Unlock()
	// A collection first, so the figure is the memory the manager holds,
	// not garbage it has not got round to.
	runtime.GC()
	return bench.ManagerMeasure{
		Counts: m.log.Snapshot(), Reconciles: reconcileCount("inferenceservice") - m.reconciles,
		CPUSeconds: (bench.CPUTime() - m.cpu).Seconds(), RSSMiB: bench.RSSMiB(), AnonMiB: bench.AnonMiB(), HeapMiB: bench.HeapMiB(), CachedObjects: m.cached(),
	}
}

func serveMeasures(ctx context.Context, listen string, m *measuredManager) error {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /reset", func(w http.ResponseWriter, _ *http.Request) { m.reset() })
	mux.HandleFunc("GET /ready", func(http.ResponseWriter, *http.Request) {})
	mux.HandleFunc("GET /measure", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(m.measure())
	})
	// The heap profile says what the memory figure is made of.
	mux.Handle("GET /heap", pprof.Handler("heap"))
	l, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// benchManager is the parent's handle on the manager process.
type benchManager struct {
	base   string
	cmd    *exec.Cmd
	exited chan error
}

// spawnBenchManager starts `fsmserve bench manager` against the cluster and
// waits until it serves admission and answers; its log goes to logDir.
func spawnBenchManager(ctx context.Context, kubeconfig, logDir string) (*benchManager, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(logDir, "bench-manager.log"))
	if err != nil {
		return nil, err
	}
	m := &benchManager{base: "http://127.0.0.1:" + strconv.Itoa(port), exited: make(chan error, 1)}
	m.cmd = exec.Command(self, "bench", "manager", "--kubeconfig", kubeconfig, "--listen", "127.0.0.1:"+strconv.Itoa(port))
	m.cmd.Stdout, m.cmd.Stderr = logFile, logFile
	if err := m.cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	go func() { m.exited <- m.cmd.Wait(); logFile.Close() }()
	return m, m.waitAnswering(ctx, logFile.Name())
}

func (m *benchManager) waitAnswering(ctx context.Context, logPath string) error {
	deadline := time.After(3 * time.Minute)
	for {
		if err := m.call(ctx, http.MethodGet, "/ready", nil); err == nil {
			return nil
		}
		select {
		case err := <-m.exited:
			return fmt.Errorf("the bench's manager process exited (%v); see %s", err, logPath)
		case <-deadline:
			return fmt.Errorf("the bench's manager process did not answer within 3 minutes; see %s", logPath)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (m *benchManager) reset(ctx context.Context) error {
	return m.call(ctx, http.MethodPost, "/reset", nil)
}

func (m *benchManager) measure(ctx context.Context) (bench.ManagerMeasure, error) {
	var out bench.ManagerMeasure
	return out, m.call(ctx, http.MethodGet, "/measure", func(body io.Reader) error { return json.NewDecoder(body).Decode(&out) })
}

// call sends one request to the manager process and hands a 200 answer's
// body to read (nil when the answer carries nothing to read).
func (m *benchManager) call(ctx context.Context, method, path string, read func(io.Reader) error) error {
	req, err := http.NewRequestWithContext(ctx, method, m.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	if read == nil {
		return nil
	}
	return read(resp.Body)
}

// stop ends the manager process and waits for it.
func (m *benchManager) stop() {
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(10 * time.Second):
		_ = m.cmd.Process.Kill()
		<-m.exited
	}
}

// saveHeapProfile writes the manager process's heap profile to path.
func (m *benchManager) saveHeapProfile(ctx context.Context, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return m.call(ctx, http.MethodGet, "/heap?gc=1", func(body io.Reader) error {
		_, err := io.Copy(f, body)
		return err
	})
}
