package inferenceservice_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/internal/testenv"
	"github.com/fsmserve/fsmserve/internal/tracing"
)

var (
	env   *testenv.Env
	spans *tracetest.SpanRecorder
	clk   *clocktesting.FakeClock
)

// TestMain runs the controller in-process against a real API server and etcd.
func TestMain(m *testing.M) {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr)))
	var err error
	if env, err = testenv.Start(testenv.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := startManager(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		cancel()
		_ = env.Stop()
		os.Exit(1)
	}
	code := m.Run()
	cancel()
	_ = env.Stop()
	os.Exit(code)
}

func startManager(ctx context.Context) error {
	if err := installPlatform(ctx); err != nil {
		return err
	}
	mgr, err := controllers.NewManager(env.Config, controllers.ManagerOptions{SystemNamespace: config.DefaultSystemNamespace})
	if err != nil {
		return err
	}
	spans = tracetest.NewSpanRecorder()
	clk = clocktesting.NewFakeClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	if err := controllers.Setup(mgr, controllers.Options{SystemNamespace: config.DefaultSystemNamespace, Clock: clk,
		TracerProvider: tracing.NewProvider("fsmserve-test", spans), ClusterDomain: "cluster.local"}); err != nil {
		return err
	}
	go func() { _ = mgr.Start(ctx) }()
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		return fmt.Errorf("cache did not sync")
	}
	return nil
}

// installPlatform creates the system namespace, the shipped config and runtimes.
func installPlatform(ctx context.Context) error {
	if err := env.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: config.DefaultSystemNamespace}}); err != nil {
		return err
	}
	docs, err := config.DefaultManifests()
	if err != nil {
		return err
	}
	for _, doc := range docs {
		obj := &unstructuredObject{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return err
		}
		if err := env.Client.Create(ctx, obj.toUnstructured()); err != nil {
			return fmt.Errorf("install %s: %w", obj.Object["metadata"], err)
		}
	}
	return nil
}

var _ client.Object
