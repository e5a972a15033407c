package main

import (
	"context"
	"os"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
)

// installManifests is what fsmserve dev installs: CRDs, the default storage
// container, inferenceservice-config (Standard mode) and KServe's runtimes.
func installManifests() ([][]byte, error) { return config.InstallManifests() }

// runInProcess runs the manager inside `fsmserve dev`, exporting traces to the
// local Jaeger when it runs.
func runInProcess(ctx context.Context, cfg *rest.Config, otlpEndpoint string) error {
	ctrl.SetLogger(zap.New(zap.WriteTo(devLog())))
	if otlpEndpoint != "" {
		os.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlpEndpoint)
		// Locally, a rollout should show up in Jaeger within a second, not
		// after the exporter's default five-second batch.
		if os.Getenv("OTEL_BSP_SCHEDULE_DELAY") == "" {
			os.Setenv("OTEL_BSP_SCHEDULE_DELAY", "500")
		}
	}
	return runManager(ctx, cfg, controllers.ManagerOptions{SystemNamespace: config.SystemNamespace(), MetricsAddr: "0", HealthAddr: "0"})
}

// devLog keeps the manager's logs out of the terminal the user is typing in.
func devLog() *os.File {
	if err := os.MkdirAll(".fsmserve/logs", 0o755); err == nil {
		if f, err := os.OpenFile(".fsmserve/logs/manager.log", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
			return f
		}
	}
	return os.Stderr
}
