package localmodelnode_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
	"github.com/fsmserve/fsmserve/internal/testenv"
	"github.com/fsmserve/fsmserve/internal/tracing"
)

var env *testenv.Env

// TestMain runs the agents in-process against a real API server and etcd.
func TestMain(m *testing.M) {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapLevel())))
	var err error
	if env, err = testenv.Start(testenv.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx := context.Background()
	for _, ns := range []string{config.DefaultSystemNamespace, config.DefaultLocalModelJobNamespace} {
		if err := env.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	_ = env.Stop()
	os.Exit(code)
}

// agentHandle is one running agent: its manager can be stopped (an agent
// restart) and its spans read.
type agentHandle struct {
	Agent *localmodelnode.Agent
	Spans *tracetest.SpanRecorder
	stop  context.CancelFunc
	done  chan error
}

// startAgent runs an agent for node with the given models root and clock
// until stopped (or the test ends).
func startAgent(t *testing.T, node, root string, clk *clocktesting.FakeClock, retry localmodelnode.RetryPolicy) *agentHandle {
	t.Helper()
	mgr, err := localmodelnode.NewManager(env.Config, localmodelnode.ManagerOptions{NodeName: node,
		JobNamespace: config.DefaultLocalModelJobNamespace, SystemNamespace: config.DefaultSystemNamespace})
	if err != nil {
		t.Fatal(err)
	}
	spans := tracetest.NewSpanRecorder()
	a, err := localmodelnode.Setup(mgr, localmodelnode.Options{NodeName: node, ModelsRoot: root,
		JobNamespace: config.DefaultLocalModelJobNamespace, SystemNamespace: config.DefaultSystemNamespace,
		Clock: clk, TracerProvider: tracing.NewProvider("agent-test", spans), Retry: retry, SimulateDownloads: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &agentHandle{Agent: a, Spans: spans, stop: cancel, done: make(chan error, 1)}
	go func() { h.done <- mgr.Start(ctx) }()
	syncCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	if !mgr.GetCache().WaitForCacheSync(syncCtx) {
		t.Fatal("the agent's cache did not sync")
	}
	t.Cleanup(h.Stop)
	return h
}

// Stop stops the agent and waits for its manager to return.
func (h *agentHandle) Stop() {
	if h.stop == nil {
		return
	}
	h.stop()
	<-h.done
	h.stop = nil
}

// zapLevel keeps the agents' logs to errors unless FSMSERVE_TEST_LOGS is set.
func zapLevel() zapcore.Level {
	if os.Getenv("FSMSERVE_TEST_LOGS") != "" {
		return zapcore.DebugLevel
	}
	return zapcore.ErrorLevel
}
