package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
	"github.com/fsmserve/fsmserve/internal/tracing"
)

type agentFlags struct {
	nodeName          string
	modelsRoot        string
	kubeconfig        string
	metricsAddr       string
	healthAddr        string
	attempts          int
	backoff           time.Duration
	maxBackoff        time.Duration
	simulateDownloads bool
}

func newLocalModelAgentCommand() *cobra.Command {
	f := agentFlags{nodeName: os.Getenv("NODE_NAME")}
	cmd := &cobra.Command{
		Use:   "localmodel-agent",
		Short: "Run the node agent that downloads cached models onto this node (one per node, a DaemonSet)",
		Long: "localmodel-agent reconciles the LocalModelNode named after its node ($NODE_NAME, from the\n" +
			"downward API): for each model it creates one download Job in localModel.jobNamespace of\n" +
			"inferenceservice-config (read at start from $POD_NAMESPACE, default kserve), verifies the\n" +
			"model folder under --models-root (the node's hostPath, mounted where KServe mounts it),\n" +
			"retries failed downloads with backoff, keeps models within the node group's storageLimit,\n" +
			"and removes the folders of models that left the spec.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.nodeName == "" {
				cmd.SilenceUsage = true
				return fmt.Errorf("no node name: set NODE_NAME (downward API fieldRef spec.nodeName) or pass --node-name")
			}
			return runAgainstCluster(cmd, f.kubeconfig, func(ctx context.Context, cfg *rest.Config) error {
				return runAgent(ctx, cfg, f)
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.nodeName, "node-name", f.nodeName, "the node this agent runs on (default $NODE_NAME)")
	fl.StringVar(&f.modelsRoot, "models-root", "/mnt/models", "where the node's model directory is mounted; models live in <root>/models/<storage key>")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "kubeconfig path; in-cluster config or $KUBECONFIG when empty")
	fl.StringVar(&f.metricsAddr, "metrics-bind-address", "0", "address for Prometheus metrics; 0 disables")
	fl.StringVar(&f.healthAddr, "health-probe-bind-address", ":8081", "address for /healthz and /readyz; 0 disables")
	def := localmodelnode.DefaultRetryPolicy()
	fl.IntVar(&f.attempts, "download-attempts", def.MaxAttempts, "download Jobs one round may create before the model's download is Failed")
	fl.DurationVar(&f.backoff, "download-backoff", def.Backoff, "wait after the first failed download attempt; it doubles after each further one")
	fl.DurationVar(&f.maxBackoff, "download-backoff-max", def.MaxBackoff, "longest wait between download attempts")
	fl.BoolVar(&f.simulateDownloads, "simulate-downloads", false,
		"fake nodes only (fsmserve dev): write the model folder when a download Job reports success, since no pod ran")
	return cmd
}

func runAgent(ctx context.Context, cfg *rest.Config, f agentFlags) error {
	if f.attempts < 1 || f.backoff <= 0 || f.maxBackoff < f.backoff {
		return fmt.Errorf("--download-attempts must be at least 1 and --download-backoff-max at least --download-backoff (> 0)")
	}
	tp, shutdown, err := tracing.Setup(ctx, "fsmserve-localmodel-agent")
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	defer func() { _ = shutdown(context.Background()) }()
	ns := config.SystemNamespace()
	jobNamespace, err := localmodelnode.JobNamespaceFromConfig(ctx, cfg, ns)
	if err != nil {
		return err
	}
	mgr, err := localmodelnode.NewManager(cfg, localmodelnode.ManagerOptions{NodeName: f.nodeName, JobNamespace: jobNamespace,
		SystemNamespace: ns, MetricsAddr: f.metricsAddr, HealthAddr: f.healthAddr})
	if err != nil {
		return err
	}
	_, err = localmodelnode.Setup(mgr, localmodelnode.Options{NodeName: f.nodeName, ModelsRoot: f.modelsRoot,
		JobNamespace: jobNamespace, SystemNamespace: ns, TracerProvider: tp, SimulateDownloads: f.simulateDownloads,
		Retry: localmodelnode.RetryPolicy{MaxAttempts: f.attempts, Backoff: f.backoff, MaxBackoff: f.maxBackoff}})
	if err != nil {
		return err
	}
	return mgr.Start(ctx)
}
