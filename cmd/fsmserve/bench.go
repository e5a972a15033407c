package main

import (
	"context"
	"fmt"
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
	"github.com/fsmserve/fsmserve/internal/apicount"
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
}

func newBenchCommand() *cobra.Command {
	root := &cobra.Command{Use: "bench", Short: "Measure fsmserve on a local cluster"}
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "controller",
		Short: "N InferenceServices on a fresh local cluster: time to Ready against the floor, API requests per object, CPU, memory, idle requests",
		Long: "controller starts the local cluster of `fsmserve dev` (fresh, in --work-dir) and\n" +
			"the manager in this process with its requests counted at its transport, then:\n" +
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
	root.AddCommand(cmd)
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
	r, runErr := benchRun(ctx, cluster.RESTConfig(), f, progress)
	if runErr != nil {
		// What was measured before the failing phase is still worth seeing.
		r.Error = runErr.Error()
	}
	if err := r.Print(cmd.OutOrStdout(), f.json); err != nil {
		return err
	}
	return runErr
}

func benchRun(ctx context.Context, admin *rest.Config, f benchFlags, progress interface{ Write([]byte) (int, error) }) (bench.Report, error) {
	r := bench.Report{N: f.n, Noise: f.noise, IdleSeconds: f.idle.Seconds()}
	c, err := client.New(admin, client.Options{Scheme: scheme.New()})
	if err != nil {
		return r, err
	}
	fmt.Fprintf(progress, "bench: the floor, %d Deployment+Service pairs\n", f.n)
	floor, err := inNamespace(ctx, c, "bench-floor", func(ns string) (time.Duration, error) { return bench.Floor(ctx, c, ns, f.n) })
	if err != nil {
		return r, fmt.Errorf("floor: %w", err)
	}
	r.FloorSeconds = floor.Seconds()
	fmt.Fprintf(progress, "bench: removing the floor's pods\n")
	if err := bench.Clear(ctx, c, "bench-floor"); err != nil {
		return r, fmt.Errorf("clearing the floor: %w", err)
	}
	if f.noise > 0 {
		fmt.Fprintf(progress, "bench: %d unrelated Secrets and pods\n", f.noise)
		if _, err := inNamespace(ctx, c, "bench-noise", func(ns string) (time.Duration, error) { return 0, bench.Noise(ctx, c, ns, f.noise) }); err != nil {
			return r, err
		}
	}
	log := &apicount.Log{}
	mgr, err := startBenchManager(ctx, admin, log.Attach(admin))
	if err != nil {
		return r, err
	}
	fmt.Fprintf(progress, "bench: %d InferenceServices\n", f.n)
	log.Reset()
	cpu, reconciles := bench.CPUTime(), reconcileCount("inferenceservice")
	var admission []time.Duration
	ready, err := inNamespace(ctx, c, "bench", func(ns string) (time.Duration, error) {
		d, lat, err := bench.ApplyAndWaitReady(ctx, c, ns, f.n)
		admission = lat
		return d, err
	})
	if err != nil {
		return r, fmt.Errorf("InferenceServices: %w", err)
	}
	r.CreateP50Ms = float64(bench.Percentile(admission, 50).Microseconds()) / 1000
	r.CreateP99Ms = float64(bench.Percentile(admission, 99).Microseconds()) / 1000
	r.ReadySeconds = ready.Seconds()
	time.Sleep(3 * time.Second) // the last Events and status writes land
	counts := log.Snapshot()
	r.Writes, r.Reads = counts.Writes(), counts.Reads()
	r.CPUSeconds = (bench.CPUTime() - cpu).Seconds()
	r.Reconciles = reconcileCount("inferenceservice") - reconciles
	fmt.Fprintf(progress, "bench: a new model version for each\n")
	log.Reset()
	rollout, err := bench.RollOut(ctx, c, "bench", f.n)
	if err != nil {
		return r, fmt.Errorf("rollout: %w", err)
	}
	time.Sleep(3 * time.Second)
	r.RolloutSeconds, r.RolloutWrites = rollout.Seconds(), log.Snapshot().Writes()
	fmt.Fprintf(progress, "bench: idle for %s\n", f.idle)
	log.Reset()
	time.Sleep(f.idle)
	r.Idle = log.Snapshot().ByKind
	r.RSSMiB = bench.RSSMiB()
	r.CachedObjects = cachedObjects(ctx, mgr)
	return r, nil
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
