package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fsmserve/fsmserve/controllers/lifecycle"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/webhooks"
	"github.com/fsmserve/fsmserve/webhooks/certs"
)

type managerFlags struct {
	metricsAddr    string
	healthAddr     string
	leaderElection bool
	kubeconfig     string
	webhookPort    int
	webhookCertDir string
	statusGrace    time.Duration
}

func newManagerCommand() *cobra.Command {
	var f managerFlags
	cmd := &cobra.Command{
		Use:   "manager",
		Short: "Run the controllers (InferenceService lifecycle) against a cluster",
		Long: "manager runs fsmserve's controllers. It reads inferenceservice-config from the\n" +
			"namespace in $POD_NAMESPACE (default kserve) and exports lifecycle traces over\n" +
			"OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAgainstCluster(cmd, f.kubeconfig, func(ctx context.Context, cfg *rest.Config) error {
				ns := config.SystemNamespace()
				return runManager(ctx, cfg, controllers.ManagerOptions{
					SystemNamespace: ns, MetricsAddr: f.metricsAddr,
					HealthAddr: f.healthAddr, LeaderElection: f.leaderElection, StatusGrace: f.statusGrace,
				}, webhooks.ServeOptions{SystemNamespace: ns, Port: f.webhookPort, CertDir: f.webhookCertDir}, nil)
			})
		},
	}
	cmd.Flags().StringVar(&f.metricsAddr, "metrics-bind-address", ":8080", "address for Prometheus metrics; 0 disables")
	cmd.Flags().StringVar(&f.healthAddr, "health-probe-bind-address", ":8081", "address for /healthz and /readyz; 0 disables")
	cmd.Flags().BoolVar(&f.leaderElection, "leader-elect", false, "elect a leader so only one replica reconciles")
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig", "", "kubeconfig path; in-cluster config or $KUBECONFIG when empty")
	addStatusGraceFlag(cmd, &f)
	cmd.Flags().IntVar(&f.webhookPort, "webhook-port", 9443, "port of the admission webhook server")
	cmd.Flags().StringVar(&f.webhookCertDir, "webhook-cert-dir", "/tmp/k8s-webhook-server/serving-certs",
		"directory with tls.crt and tls.key from cert-manager; when they are absent fsmserve issues, injects and rotates its own")
	return cmd
}

func restConfig(kubeconfig string) (*rest.Config, error) {
	if kubeconfig != "" {
		os.Setenv("KUBECONFIG", kubeconfig)
	}
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return nil, fmt.Errorf("no cluster to talk to: %w (pass --kubeconfig or set KUBECONFIG)", err)
	}
	return cfg, nil
}

// runManager runs the controllers and the admission webhooks until ctx ends,
// with tracing from the standard OTEL_* environment. started, when not nil,
// receives the certificate manager (nil with external certificates).
func runManager(ctx context.Context, cfg *rest.Config, o controllers.ManagerOptions, w webhooks.ServeOptions, started chan<- *certs.Manager) error {
	tp, shutdown, err := tracing.Setup(ctx, "fsmserve-manager")
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	defer func() { _ = shutdown(context.Background()) }()
	srv, cm, err := webhooks.NewServer(cfg, w)
	if err != nil {
		return err
	}
	o.Webhook = srv
	mgr, err := controllers.NewManager(cfg, o)
	if err != nil {
		return err
	}
	if err := controllers.Setup(mgr, controllers.Options{SystemNamespace: o.SystemNamespace, TracerProvider: tp, StatusGrace: o.StatusGrace}); err != nil {
		return err
	}
	if err := webhooks.Register(mgr, o.SystemNamespace, cm); err != nil {
		return err
	}
	if started != nil {
		started <- cm
	}
	return mgr.Start(ctx)
}

// runAgainstCluster is the start of every command that runs against a
// cluster: plain errors (no usage dump), JSON logs, the kubeconfig, and a
// context that ends on Ctrl-C or SIGTERM.
func runAgainstCluster(cmd *cobra.Command, kubeconfig string, run func(context.Context, *rest.Config) error) error {
	cmd.SilenceUsage = true
	ctrl.SetLogger(zap.New())
	cfg, err := restConfig(kubeconfig)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, cfg)
}

// addStatusGraceFlag registers --status-grace (lifecycle.Grace).
func addStatusGraceFlag(cmd *cobra.Command, f *managerFlags) {
	cmd.Flags().DurationVar(&f.statusGrace, "status-grace", lifecycle.DefaultStatusGrace,
		"how long a progress report (a new spec, or detail of the state shown) may wait for its outcome before it is written; negative writes every report at once")
}
