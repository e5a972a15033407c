package devcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
)

// ReadyLine is printed on stdout, once, when the cluster takes `kubectl apply`.
const ReadyLine = "fsmserve dev: ready"

// Hooks connect the dev command to the rest of fsmserve.
type Hooks struct {
	// Manifests returns the YAML to install once the cluster is up (CRDs, default config, runtimes).
	Manifests func() ([][]byte, error)
	// Run runs fsmserve's controllers (and webhooks) in-process against cfg until ctx ends.
	// otlpEndpoint is "" unless --jaeger was given.
	Run func(ctx context.Context, cfg *rest.Config, otlpEndpoint string) error
	// Ready, when set, blocks until what Run started serves (admission
	// webhooks, for one); the ready line waits for it.
	Ready func(ctx context.Context) error
}

type devFlags struct {
	kubeconfigOut string
	workDir       string
	nodes         int
	gpuNodes      int
	nodeCPU       string
	nodeMemory    string
	nodePods      string
	jaeger        bool
}

// runStopTimeout bounds how long shutdown waits for Run to return.
const runStopTimeout = 30 * time.Second

// readyTimeout bounds the wait for Hooks.Ready.
const readyTimeout = 2 * time.Minute

// NewDevCommand returns `fsmserve dev`: build the binaries if needed, start a
// local cluster with fake nodes, install h.Manifests, run h.Run against it
// and print ReadyLine; stop everything on Ctrl-C, SIGTERM or a Run error.
func NewDevCommand(h Hooks) *cobra.Command {
	var f devFlags
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Run a local Kubernetes cluster with fake GPU nodes and fsmserve's controllers",
		Long: "dev starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok\n" +
			"(fake nodes whose pods become Ready and whose Jobs complete) from binaries built once\n" +
			"into the cache, installs fsmserve's CRDs and configuration, and runs the controllers\n" +
			"in-process until interrupted. No Docker, no cloud.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SilenceUsage = true
			return runDev(cmd, h, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.kubeconfigOut, "kubeconfig-out", "", "where to write the admin kubeconfig (default <work-dir>/kubeconfig, so .fsmserve/kubeconfig)")
	fl.StringVar(&f.workDir, "work-dir", ".fsmserve", "directory for the cluster's state and logs (reset on every start)")
	fl.IntVar(&f.nodes, "nodes", DefaultNodes, "number of fake nodes")
	fl.IntVar(&f.gpuNodes, "gpu-nodes", 2, "how many of the nodes advertise 8 nvidia.com/gpu")
	fl.StringVar(&f.nodeCPU, "node-cpu", DefaultNodeSize.CPU.String(), "CPU each fake node advertises")
	fl.StringVar(&f.nodeMemory, "node-memory", DefaultNodeSize.Memory.String(), "memory each fake node advertises")
	fl.StringVar(&f.nodePods, "node-pods", DefaultNodeSize.Pods.String(), "pods each fake node holds")
	fl.BoolVar(&f.jaeger, "jaeger", false, "also run Jaeger (UI at "+JaegerUIURL+") and export traces to it")
	return cmd
}

func runDev(cmd *cobra.Command, h Hooks, f devFlags) error {
	ctx, stopSignals := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	progress := cmd.ErrOrStderr()

	bins, err := EnsureBinaries(ctx, EnsureOptions{Jaeger: f.jaeger, Progress: progress})
	if err != nil {
		return err
	}
	if f.kubeconfigOut == "" {
		f.kubeconfigOut = filepath.Join(f.workDir, "kubeconfig")
	}
	size, err := ParseNodeSize(f.nodeCPU, f.nodeMemory, f.nodePods)
	if err != nil {
		return err
	}
	cluster, err := New(Options{
		WorkDir: f.workDir, KubeconfigPath: f.kubeconfigOut,
		Nodes: f.nodes, GPUNodes: f.gpuNodes, NodeSize: size, Binaries: bins, Progress: progress,
	})
	if err != nil {
		return err
	}
	if err := cluster.Start(ctx); err != nil {
		return err
	}
	defer stopCluster(cluster, progress)

	otlp, err := setUp(ctx, cluster, h, f.jaeger)
	if err != nil {
		return err
	}
	runCtx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	runErr := make(chan error, 1)
	go func() { runErr <- runHook(runCtx, h, cluster.RESTConfig(), otlp) }()
	if err := awaitReady(ctx, h, runErr); err != nil {
		cancelRun()
		return err
	}
	printReady(cmd.OutOrStdout(), cluster, f.jaeger)

	select {
	case <-ctx.Done():
		stopSignals() // a second Ctrl-C now kills at once; children die with us
		fmt.Fprintln(progress, "fsmserve dev: stopping...")
		cancelRun()
		return awaitRun(runErr)
	case err := <-runErr:
		if ctx.Err() != nil { // Run saw the signal first: an ordinary stop
			return awaitRun(replay(err))
		}
		if err != nil {
			return fmt.Errorf("fsmserve dev: the controllers failed: %w", err)
		}
		fmt.Fprintln(progress, "fsmserve dev: the controllers returned; stopping the cluster")
		return nil
	}
}

// setUp starts Jaeger when asked and installs the manifests.
func setUp(ctx context.Context, cluster *Cluster, h Hooks, jaeger bool) (otlpEndpoint string, err error) {
	if jaeger {
		if otlpEndpoint, err = cluster.StartJaeger(ctx); err != nil {
			return "", err
		}
	}
	if h.Manifests == nil {
		return otlpEndpoint, nil
	}
	docs, err := h.Manifests()
	if err != nil {
		return "", fmt.Errorf("fsmserve dev: building the manifests to install: %w", err)
	}
	started := time.Now()
	if err := cluster.ApplyManifests(ctx, docs...); err != nil {
		return "", fmt.Errorf("fsmserve dev: installing manifests: %w", err)
	}
	fmt.Fprintf(cluster.opts.Progress, "fsmserve: manifests installed in %s\n", roundDuration(time.Since(started)))
	return otlpEndpoint, nil
}

// awaitReady waits for the in-process controllers and webhooks to say they
// serve, so the ready line never precedes a working kubectl apply.
func awaitReady(ctx context.Context, h Hooks, runErr <-chan error) error {
	if h.Ready == nil {
		return nil
	}
	readyCtx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- h.Ready(readyCtx) }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("fsmserve dev: the controllers did not become ready: %w", err)
		}
		return nil
	case err := <-runErr:
		return fmt.Errorf("fsmserve dev: the controllers stopped before they were ready: %v", err)
	}
}

func runHook(ctx context.Context, h Hooks, cfg *rest.Config, otlp string) error {
	if h.Run == nil {
		<-ctx.Done()
		return nil
	}
	return h.Run(ctx, cfg, otlp)
}

// awaitRun waits for Run to return after its context was cancelled; an
// error caused by that cancellation is a clean stop.
func awaitRun(runErr <-chan error) error {
	select {
	case err := <-runErr:
		if err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("fsmserve dev: the controllers failed while stopping: %w", err)
		}
		return nil
	case <-time.After(runStopTimeout):
		return fmt.Errorf("fsmserve dev: the controllers did not stop within %s of being asked", runStopTimeout)
	}
}

func replay(err error) <-chan error {
	ch := make(chan error, 1)
	ch <- err
	return ch
}

// printReady tells the user how to reach the cluster, in one write that ends
// with ReadyLine: whoever waits for that line has everything before it.
func printReady(out io.Writer, cluster *Cluster, jaeger bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "export KUBECONFIG=%s   # then: kubectl get nodes\n", cluster.KubeconfigPath())
	if jaeger {
		fmt.Fprintf(&b, "Jaeger UI: %s\n", JaegerUIURL)
	}
	fmt.Fprintf(&b, "process logs: %s; press Ctrl-C to stop\n", cluster.LogDir())
	b.WriteString(ReadyLine + "\n")
	_, _ = io.WriteString(out, b.String())
}

func stopCluster(cluster *Cluster, progress io.Writer) {
	started := time.Now()
	cluster.Stop()
	fmt.Fprintf(progress, "fsmserve dev: cluster stopped in %s\n", roundDuration(time.Since(started)))
}
