package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/controllers/localmodelcache"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/webhooks"
	lmwebhook "github.com/fsmserve/fsmserve/webhooks/localmodel"
)

// localModelLeaderElectionID differs from the manager's, so the two can run
// side by side, each with its own leader.
const localModelLeaderElectionID = "fsmserve-localmodel-manager.serving.kserve.io"

func newLocalModelManagerCommand() *cobra.Command {
	var f managerFlags
	cmd := &cobra.Command{
		Use:   "localmodel-manager",
		Short: "Run the LocalModelCache and LocalModelNamespaceCache controllers against a cluster",
		Long: "localmodel-manager runs only the local model cache controllers (KServe's\n" +
			"kserve-localmodel-controller-manager): it distributes each cache's model to the\n" +
			"LocalModelNodes of its node groups and manages the download and serving volumes.\n" +
			"With tls.crt and tls.key in --webhook-cert-dir (cert-manager) it also serves the\n" +
			"LocalModelCache and LocalModelNamespaceCache validators. `fsmserve manager` runs the\n" +
			"same controllers and validators; run one or the other.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAgainstCluster(cmd, f.kubeconfig, func(ctx context.Context, cfg *rest.Config) error {
				return runLocalModelManager(ctx, cfg, f)
			})
		},
	}
	cmd.Flags().StringVar(&f.metricsAddr, "metrics-bind-address", ":8080", "address for Prometheus metrics; 0 disables")
	cmd.Flags().StringVar(&f.healthAddr, "health-probe-bind-address", ":8081", "address for /healthz and /readyz; 0 disables")
	cmd.Flags().BoolVar(&f.leaderElection, "leader-elect", false, "elect a leader so only one replica reconciles")
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig", "", "kubeconfig path; in-cluster config or $KUBECONFIG when empty")
	cmd.Flags().IntVar(&f.webhookPort, "webhook-port", 9443, "port of the admission webhook server")
	addStatusGraceFlag(cmd, &f)
	cmd.Flags().StringVar(&f.webhookCertDir, "webhook-cert-dir", "/tmp/k8s-webhook-server/serving-certs",
		"directory with tls.crt and tls.key; without them no webhook is served")
	return cmd
}

func runLocalModelManager(ctx context.Context, cfg *rest.Config, f managerFlags) error {
	tp, shutdown, err := tracing.Setup(ctx, "fsmserve-localmodel-manager")
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	defer func() { _ = shutdown(context.Background()) }()
	ns := config.SystemNamespace()
	var srv webhook.Server
	if certsIn(f.webhookCertDir) {
		srv = webhook.NewServer(webhook.Options{Port: f.webhookPort, CertDir: f.webhookCertDir})
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme.New(), Cache: controllers.CacheOptions(ns),
		Metrics:                metricsserver.Options{BindAddress: f.metricsAddr},
		HealthProbeBindAddress: f.healthAddr, WebhookServer: srv,
		LeaderElection: f.leaderElection, LeaderElectionID: localModelLeaderElectionID, LeaderElectionNamespace: ns,
	})
	if err != nil {
		return err
	}
	if err := addProbes(mgr, f.healthAddr, srv); err != nil {
		return err
	}
	src := &config.Source{Reader: mgr.GetClient(), Namespace: ns}
	if err := localmodelcache.Setup(mgr, clock.RealClock{}, f.statusGrace, src, tp.Tracer(tracing.InstrumentationName)); err != nil {
		return err
	}
	if srv != nil {
		lmwebhook.Register(srv, mgr.GetScheme(), mgr.GetAPIReader(), webhooks.PathLMCValidator, webhooks.PathLMNCValidator)
	}
	return mgr.Start(ctx)
}

func addProbes(mgr ctrl.Manager, healthAddr string, srv webhook.Server) error {
	if healthAddr == "0" {
		return nil
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if srv != nil {
		return mgr.AddReadyzCheck("webhook-server", srv.StartedChecker())
	}
	return mgr.AddReadyzCheck("readyz", healthz.Ping)
}

// certsIn reports whether dir holds a serving certificate and key.
func certsIn(dir string) bool {
	if dir == "" {
		return false
	}
	_, errCrt := os.Stat(filepath.Join(dir, "tls.crt"))
	_, errKey := os.Stat(filepath.Join(dir, "tls.key"))
	return errCrt == nil && errKey == nil
}
