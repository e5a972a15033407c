// Package scenariohost gives scenario tables somewhere to run: a real API
// server (a fresh envtest, or an existing cluster), fsmserve's platform objects
// (inferenceservice-config, runtimes) and fsmserve's controllers running
// in-process on a fake clock, recording their spans.
package scenariohost

import (
	"context"
	"fmt"
	"io"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/internal/testenv"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/scenarios/runner"
)

// Epoch is where the controllers' fake clock starts for every scenario, so
// scenarios can expect exact lifecycle times.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// AgentNodes are the fake nodes that have a LocalModelNode agent in the
// host (localmodelnode.FakeNodes: simulated downloads, a models root each
// under a temporary directory, steered by fake-node ConfigMaps). Scenarios
// write LocalModelNodes with these names; two scenarios that use the same
// node must not run at the same time.
var AgentNodes = []string{"agent-node-1", "agent-node-2", "agent-node-3", "agent-node-4", "agent-node-5"}

// Host is a running API server with fsmserve's controllers in-process.
type Host struct {
	Harness *runner.Harness
	Config  *rest.Config
	// Nodes are the fake nodes' agents.
	Nodes  *localmodelnode.FakeNodes
	cancel context.CancelFunc
	env    *testenv.Env
	done   chan error
}

// Options choose the API server.
type Options struct {
	// Kubeconfig points at a cluster where fsmserve runs (the live host:
	// `make run`'s, or one it was installed on); empty starts a fresh envtest
	// with the controllers in this process.
	Kubeconfig string
	Progress   io.Writer
}

// Start brings the host up; Stop it when done.
func Start(ctx context.Context, o Options) (*Host, error) {
	if o.Kubeconfig != "" {
		return startLive(ctx, o)
	}
	h := &Host{done: make(chan error, 1)}
	cfg, err := h.apiServer(o)
	if err != nil {
		return nil, err
	}
	h.Config = cfg
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		h.Stop()
		return nil, err
	}
	if err := installPlatform(ctx, cfg, c); err != nil {
		h.Stop()
		return nil, err
	}
	spans := tracetest.NewSpanRecorder()
	clk := clocktesting.NewFakeClock(Epoch)
	if err := h.startControllers(ctx, cfg, clk, spans); err != nil {
		h.Stop()
		return nil, err
	}
	if h.Nodes, err = localmodelnode.StartFakeNodes(ctx, cfg, localmodelnode.FakeNodesOptions{Nodes: AgentNodes,
		SystemNamespace: config.SystemNamespace(), Clock: clk, TracerProvider: tracing.NewProvider("fsmserve-scenarios", spans)}); err != nil {
		h.Stop()
		return nil, err
	}
	h.Harness = &runner.Harness{Client: c, Clock: clk, Spans: spans.Ended, SystemNamespace: config.SystemNamespace(), Progress: o.Progress,
		Host: runner.Host{Name: "envtest"}}
	return h, nil
}

func (h *Host) apiServer(Options) (*rest.Config, error) {
	env, err := testenv.Start(testenv.Options{})
	if err != nil {
		return nil, err
	}
	h.env = env
	return env.Config, nil
}

func (h *Host) startControllers(ctx context.Context, cfg *rest.Config, clk *clocktesting.FakeClock, spans *tracetest.SpanRecorder) error {
	mgr, err := controllers.NewManager(cfg, controllers.ManagerOptions{SystemNamespace: config.SystemNamespace()})
	if err != nil {
		return err
	}
	if err := controllers.Setup(mgr, controllers.Options{SystemNamespace: config.SystemNamespace(), Clock: clk,
		TracerProvider: tracing.NewProvider("fsmserve-scenarios", spans), ClusterDomain: "cluster.local"}); err != nil {
		return err
	}
	mctx, cancel := context.WithCancel(ctx)
	h.cancel = cancel
	go func() { h.done <- mgr.Start(mctx) }()
	syncCtx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	if !mgr.GetCache().WaitForCacheSync(syncCtx) {
		return fmt.Errorf("the controllers' caches did not sync within 60s")
	}
	return nil
}

// Stop stops the agents, the controllers and, when the host started one, the API server.
func (h *Host) Stop() {
	if h.Nodes != nil {
		h.Nodes.Stop()
	}
	if h.cancel != nil {
		h.cancel()
		<-h.done
	}
	if h.env != nil {
		_ = h.env.Stop()
	}
}

// ResetClock puts the fake clock back at Epoch before a scenario (a live
// host has no fake clock).
func (h *Host) ResetClock() {
	if h.Harness.Clock != nil {
		h.Harness.Clock.SetTime(Epoch)
	}
}

// installPlatform creates the system namespace and fsmserve's default objects.
func installPlatform(ctx context.Context, cfg *rest.Config, c client.Client) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: config.SystemNamespace()}}
	if err := c.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s: %w", ns.Name, err)
	}
	docs, err := config.DefaultManifests()
	if err != nil {
		return err
	}
	return devcluster.ApplyManifests(ctx, cfg, docs...)
}
