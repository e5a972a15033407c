package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/trace/noop"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/internal/bench"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/webhooks"
)

type benchFlags struct {
	n       int
	idle    time.Duration
	noise   int
	workDir string
	json    bool
	heap    string
}

func newBenchCommand() *cobra.Command {
	root := &cobra.Command{Use: "bench", Short: "Measure fsmserve on a local cluster"}
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "controller",
		Short: "N InferenceServices on a fresh local cluster: time to Ready against the floor, API requests per object, CPU, memory, idle requests",
		Long: "controller starts the local cluster of `fsmserve dev` (fresh, in --work-dir) and\n" +
			"the manager in a process of its own with its requests counted at its transport\n" +
			"(so CPU and RSS are the manager's alone), then:\n" +
			"creates N bare Deployment+Service pairs and times them (the floor), creates N\n" +
			"InferenceServices and times them to Ready, counts the manager's writes and\n" +
			"uncached reads by verb and resource, and watches it idle. It reports; it never\n" +
			"fails on timing.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SilenceUsage = true
			return runBench(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.n, "n", 200, "InferenceServices to create")
	fl.DurationVar(&f.idle, "idle", time.Minute, "how long to watch the manager idle")
	fl.IntVar(&f.noise, "noise", 0, "unrelated Secrets and pods to create first (memory must not follow them)")
	fl.StringVar(&f.workDir, "work-dir", ".fsmserve-bench", "directory for the cluster's state (reset on every start)")
	fl.BoolVar(&f.json, "json", false, "print the report as JSON")
	fl.StringVar(&f.heap, "heap-profile", "", "write the manager's heap profile (go tool pprof) here after the idle window")
	root.AddCommand(cmd, newBenchManagerCommand())
	return root
}

func runBench(cmd *cobra.Command, f benchFlags) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctrl.SetLogger(zap.New(zap.WriteTo(devLog())))
	progress := cmd.ErrOrStderr()
	bins, err := devcluster.EnsureBinaries(ctx, devcluster.EnsureOptions{Progress: progress})
	if err != nil {
		return err
	}
	cluster, err := devcluster.New(devcluster.Options{WorkDir: f.workDir, Binaries: bins, Progress: progress})
	if err != nil {
		return err
	}
	if err := cluster.Start(ctx); err != nil {
		return err
	}
	defer cluster.Stop()
	docs, err := installManifests()
	if err != nil {
		return err
	}
	if err := cluster.ApplyManifests(ctx, docs...); err != nil {
		return err
	}
	r, runErr := benchRun(ctx, cluster, f, progress)
	if runErr != nil {
		// What was measured before the failing phase is still worth seeing.
		r.Error = runErr.Error()
	}
	if err := r.Print(cmd.OutOrStdout(), f.json); err != nil {
		return err
	}
	return runErr
}

func benchRun(ctx context.Context, cluster *devcluster.Cluster, f benchFlags, progress io.Writer) (bench.Report, error) {
	r := bench.Report{N: f.n, Noise: f.noise, IdleSeconds: f.idle.Seconds()}
	c, err := client.New(cluster.RESTConfig(), client.Options{Scheme: scheme.New()})
	if err != nil {
		return r, err
	}
	if err := floorAndNoise(ctx, c, f, &r, progress); err != nil {
		return r, err
	}
	fmt.Fprintf(progress, "bench: starting the manager in its own process\n")
	mgr, err := spawnBenchManager(ctx, cluster.KubeconfigPath(), cluster.LogDir())
	if err != nil {
		return r, err
	}
	defer mgr.stop()
	if err := createPhase(ctx, c, mgr, f, &r, progress); err != nil {
		return r, err
	}
	fmt.Fprintf(progress, "bench: a new model version for each\n")
	m, err := measured(ctx, mgr, settle, func() error {
		d, err := bench.RollOut(ctx, c, "bench", f.n)
		r.RolloutSeconds = d.Seconds()
		return err
	})
	if err != nil {
		return r, fmt.Errorf("rollout: %w", err)
	}
	r.RolloutWrites = m.Counts.Writes()
	fmt.Fprintf(progress, "bench: idle for %s\n", f.idle)
	// The idle window is measured as it is: nothing is left to land.
	m, err = measured(ctx, mgr, 0, func() error { time.Sleep(f.idle); return nil })
	if err != nil {
		return r, err
	}
	r.Idle, r.RSSMiB, r.AnonMiB, r.HeapMiB, r.CachedObjects = m.Counts.ByKind, m.RSSMiB, m.AnonMiB, m.HeapMiB, m.CachedObjects
	if f.heap != "" {
		return r, mgr.saveHeapProfile(ctx, f.heap)
	}
	return r, nil
}

// floorAndNoise times the bare Deployment+Service floor, clears its pods,
// and creates the unrelated objects, before the manager exists.
func floorAndNoise(ctx context.Context, c client.Client, f benchFlags, r *bench.Report, progress io.Writer) error {
	fmt.Fprintf(progress, "bench: the floor, %d Deployment+Service pairs\n", f.n)
	floor, err := inNamespace(ctx, c, "bench-floor", func(ns string) (time.Duration, error) { return bench.Floor(ctx, c, ns, f.n) })
	if err != nil {
		return fmt.Errorf("floor: %w", err)
	}
	r.FloorSeconds = floor.Seconds()
	fmt.Fprintf(progress, "bench: the floor of a spec change, a new pod template for each\n")
	rollout, err := bench.FloorRollOut(ctx, c, "bench-floor", f.n)
	if err != nil {
		return fmt.Errorf("floor rollout: %w", err)
	}
	r.FloorRolloutSeconds = rollout.Seconds()
	fmt.Fprintf(progress, "bench: removing the floor's pods\n")
	if err := bench.Clear(ctx, c, "bench-floor"); err != nil {
		return fmt.Errorf("clearing the floor: %w", err)
	}
	if f.noise > 0 {
		fmt.Fprintf(progress, "bench: %d unrelated Secrets and pods\n", f.noise)
		if _, err := inNamespace(ctx, c, "bench-noise", func(ns string) (time.Duration, error) { return 0, bench.Noise(ctx, c, ns, f.noise) }); err != nil {
			return err
		}
	}
	return nil
}

// createPhase creates the InferenceServices and times them to Ready.
func createPhase(ctx context.Context, c client.Client, mgr *benchManager, f benchFlags, r *bench.Report, progress io.Writer) error {
	fmt.Fprintf(progress, "bench: %d InferenceServices\n", f.n)
	var admission []time.Duration
	m, err := measured(ctx, mgr, settle, func() error {
		ready, err := inNamespace(ctx, c, "bench", func(ns string) (time.Duration, error) {
			d, lat, err := bench.ApplyAndWaitReady(ctx, c, ns, f.n)
			admission = lat
			return d, err
		})
		r.ReadySeconds = ready.Seconds()
		return err
	})
	if err != nil {
		return fmt.Errorf("InferenceServices: %w", err)
	}
	r.CreateP50Ms = float64(bench.Percentile(admission, 50).Microseconds()) / 1000
	r.CreateP99Ms = float64(bench.Percentile(admission, 99).Microseconds()) / 1000
	r.Writes, r.Reads = m.Counts.Writes(), m.Counts.Reads()
	r.CPUSeconds, r.Reconciles = m.CPUSeconds, m.Reconciles
	return nil
}

// settle is how long a phase's last Events and status writes get to land
// after what it waits for is seen.
const settle = 3 * time.Second

// measured resets the manager's counts, runs phase, gives it wait to
// settle, and reads what the manager did.
func measured(ctx context.Context, mgr *benchManager, wait time.Duration, phase func() error) (bench.ManagerMeasure, error) {
	if err := mgr.reset(ctx); err != nil {
		return bench.ManagerMeasure{}, err
	}
	if err := phase(); err != nil {
		return bench.ManagerMeasure{}, err
	}
	time.Sleep(wait)
	return mgr.measure(ctx)
}

// inNamespace creates ns and runs step in it.
func inNamespace(ctx context.Context, c client.Client, ns string, step func(ns string) (time.Duration, error)) (time.Duration, error) {
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		return 0, err
	}
	return step(ns)
}

// startBenchManager runs what `fsmserve dev` runs in process (controllers,
// webhooks over TLS on loopback), on counted, and waits until admission
// works. The node agents are not started: they are separate processes in
// a real installation.
func startBenchManager(ctx context.Context, admin, counted *rest.Config) (ctrl.Manager, error) {
	ns := config.SystemNamespace()
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := installWebhookConfigurations(ctx, admin, ns, port); err != nil {
		return nil, err
	}
	srv, cm, err := webhooks.NewServer(counted, webhooks.ServeOptions{SystemNamespace: ns, Host: "127.0.0.1", Port: port, IPs: []net.IP{net.ParseIP("127.0.0.1")}})
	if err != nil {
		return nil, err
	}
	mgr, err := controllers.NewManager(counted, controllers.ManagerOptions{SystemNamespace: ns, Webhook: srv})
	if err != nil {
		return nil, err
	}
	if err := controllers.Setup(mgr, controllers.Options{SystemNamespace: ns, TracerProvider: noop.NewTracerProvider()}); err != nil {
		return nil, err
	}
	if err := webhooks.Register(mgr, ns, cm); err != nil {
		return nil, err
	}
	go func() { _ = mgr.Start(ctx) }()
	readyCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return mgr, webhooks.WaitServing(readyCtx, cm, "127.0.0.1:"+strconv.Itoa(port))
}

func reconcileCount(controller string) int {
	n, _ := bench.Counter("controller_runtime_reconcile_total", "controller", controller)
	return int(n)
}

// cachedObjects counts what the manager's informers hold, by kind (only
// kinds it already watches: listing another would start an informer).
func cachedObjects(ctx context.Context, mgr ctrl.Manager) map[string]int {
	out := map[string]int{}
	for name, list := range map[string]client.ObjectList{
		"pods": &corev1.PodList{}, "configmaps": &corev1.ConfigMapList{},
		"services": &corev1.ServiceList{}, "deployments": &appsv1.DeploymentList{},
	} {
		if err := mgr.GetCache().List(ctx, list); err == nil {
			out[name] = meta.LenList(list)
		}
	}
	return out
}
