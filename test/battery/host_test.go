package battery_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/testenv"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/test/battery"
)

func TestMain(m *testing.M) {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr)))
	os.Exit(m.Run())
}

// newHost starts an API server of its own (so one kind's objects never
// reach another kind's pass) with the platform installed, and stops it
// when the test ends.
func newHost(t *testing.T) battery.Host {
	t.Helper()
	env, err := testenv.Start(testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: config.DefaultSystemNamespace}}
	if err := env.Client.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	docs, err := config.DefaultManifests()
	if err != nil {
		t.Fatal(err)
	}
	if err := devcluster.ApplyManifests(ctx, env.Config, docs...); err != nil {
		t.Fatal(err)
	}
	return battery.Host{Config: env.Config, Client: env.Client, Start: startManager}
}

// clock is the controllers' clock: fake, so no pass depends on how long
// the last one took.
var clock = clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

// startManager starts every fsmserve controller in a fresh manager.
func startManager(ctx context.Context, cfg *rest.Config, _ string) (func(), error) {
	mgr, err := controllers.NewManager(cfg, controllers.ManagerOptions{SystemNamespace: config.DefaultSystemNamespace, Restartable: true})
	if err != nil {
		return nil, err
	}
	if err := controllers.Setup(mgr, controllers.Options{SystemNamespace: config.DefaultSystemNamespace, Clock: clock,
		TracerProvider: tracing.NewProvider("fsmserve-battery", tracetest.NewSpanRecorder()), ClusterDomain: "cluster.local"}); err != nil {
		return nil, err
	}
	return run(ctx, mgr)
}

// run starts a manager and waits for its caches; the function it returns
// stops it.
func run(ctx context.Context, mgr ctrl.Manager) (func(), error) {
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	syncCtx, stopSync := context.WithTimeout(ctx, time.Minute)
	defer stopSync()
	if !mgr.GetCache().WaitForCacheSync(syncCtx) {
		cancel()
		return nil, fmt.Errorf("caches did not sync")
	}
	return func() { cancel(); <-done }, nil
}
