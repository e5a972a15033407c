package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/webhooks"
	"github.com/fsmserve/fsmserve/webhooks/certs"
)

// installManifests is what fsmserve dev installs: CRDs, the default storage
// container, inferenceservice-config (Standard mode) and KServe's runtimes;
// plus, for trying the local model cache, its jobs namespace and the cache
// switched on (the shipped configuration keeps KServe's default: off).
func installManifests() ([][]byte, error) {
	docs, err := config.InstallManifests()
	if err != nil {
		return nil, err
	}
	cm, err := config.DefaultConfigMap()
	if err != nil {
		return nil, err
	}
	cfg, _ := config.FromConfigMap(cm)
	raw, err := enableLocalModel(cm.Data[config.KeyLocalModel])
	if err != nil {
		return nil, err
	}
	cm.Data[config.KeyLocalModel] = raw
	cmYAML, err := yaml.Marshal(cm)
	if err != nil {
		return nil, err
	}
	jobs := fmt.Sprintf("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n", cfg.LocalModel.JobNamespace)
	return append(append([][]byte{[]byte(jobs)}, docs...), cmYAML), nil
}

// enableLocalModel sets "enabled": true in the localModel key's JSON.
func enableLocalModel(raw string) (string, error) {
	doc := map[string]any{}
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		return "", fmt.Errorf("shipped localModel config: %w", err)
	}
	doc["enabled"] = true
	out, err := json.MarshalIndent(doc, "", "  ")
	return string(out), err
}

// inProcess runs the manager inside `fsmserve dev`: controllers plus the
// admission webhooks, served on loopback where the local API server reaches
// them, with fsmserve's own certificate injected into their configurations.
type inProcess struct {
	started chan *certs.Manager
	port    int
}

func newInProcess() *inProcess { return &inProcess{started: make(chan *certs.Manager, 1)} }

func (p *inProcess) hooks() devcluster.Hooks {
	return devcluster.Hooks{Manifests: installManifests, Run: p.run, Ready: p.ready}
}

func (p *inProcess) run(ctx context.Context, cfg *rest.Config, otlpEndpoint string) error {
	ctrl.SetLogger(zap.New(zap.WriteTo(devLog())))
	if otlpEndpoint != "" {
		os.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlpEndpoint)
		// Locally, a rollout should show up in Jaeger within a second, not
		// after the exporter's default five-second batch.
		if os.Getenv("OTEL_BSP_SCHEDULE_DELAY") == "" {
			os.Setenv("OTEL_BSP_SCHEDULE_DELAY", "500")
		}
	}
	ns := config.SystemNamespace()
	port, err := freePort()
	if err != nil {
		return err
	}
	p.port = port
	if err := installWebhookConfigurations(ctx, cfg, ns, port); err != nil {
		return err
	}
	stopAgents, err := startNodeAgents(ctx, cfg, ns)
	if err != nil {
		return err
	}
	defer stopAgents()
	return runManager(ctx, cfg, controllers.ManagerOptions{SystemNamespace: ns, MetricsAddr: "0", HealthAddr: "0"},
		webhooks.ServeOptions{SystemNamespace: ns, Host: "127.0.0.1", Port: port, IPs: []net.IP{net.ParseIP("127.0.0.1")}}, p.started)
}

// ready waits until admission works: the certificate injected and the
// webhook server completing TLS handshakes.
func (p *inProcess) ready(ctx context.Context) error {
	var cm *certs.Manager
	select {
	case cm = <-p.started:
	case <-ctx.Done():
		return ctx.Err()
	}
	return webhooks.WaitServing(ctx, cm, "127.0.0.1:"+strconv.Itoa(p.port))
}

func installWebhookConfigurations(ctx context.Context, cfg *rest.Config, ns string, port int) error {
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return err
	}
	return webhooks.Install(ctx, c, ns, webhooks.AtURL("https://127.0.0.1:"+strconv.Itoa(port)))
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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
