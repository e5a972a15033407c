package controllers

import (
	"time"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fsmserve/fsmserve/internal/scheme"
)

// ManagerOptions are the process-level settings of a manager.
type ManagerOptions struct {
	SystemNamespace string
	// MetricsAddr serves Prometheus metrics; "0" disables.
	MetricsAddr string
	// HealthAddr serves /healthz and /readyz; "0" disables.
	HealthAddr string
	// LeaderElection makes one replica active at a time.
	LeaderElection bool
	// Webhook, when set, serves admission webhooks from this manager.
	Webhook webhook.Server
	// Restartable lets a process run one manager after another (the
	// controller battery starts a fresh manager per pass); controller-runtime
	// otherwise refuses a controller name it has seen before.
	Restartable bool
	// StatusGrace is Options.StatusGrace.
	StatusGrace time.Duration
}

// NewManager builds a manager with fsmserve's scheme and filtered caches.
func NewManager(cfg *rest.Config, o ManagerOptions) (ctrl.Manager, error) {
	if o.MetricsAddr == "" {
		o.MetricsAddr = "0"
	}
	if o.HealthAddr == "" {
		o.HealthAddr = "0"
	}
	cfg = rest.CopyConfig(cfg)
	// client-go's default of 5 requests/s (burst 10) throttles a manager that
	// reconciles and answers admission requests for many objects; the API
	// server's own priority and fairness is the real limit.
	if cfg.QPS == 0 {
		cfg.QPS, cfg.Burst = 100, 200
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  scheme.New(),
		Cache:                   CacheOptions(o.SystemNamespace),
		Metrics:                 metricsserver.Options{BindAddress: o.MetricsAddr},
		HealthProbeBindAddress:  o.HealthAddr,
		LeaderElection:          o.LeaderElection,
		LeaderElectionID:        "fsmserve-manager.serving.kserve.io",
		LeaderElectionNamespace: o.SystemNamespace,
		WebhookServer:           o.Webhook,
		Controller:              config.Controller{SkipNameValidation: &o.Restartable},
	})
	if err != nil {
		return nil, err
	}
	if o.HealthAddr != "0" {
		if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
			return nil, err
		}
		if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
			return nil, err
		}
	}
	return mgr, nil
}
