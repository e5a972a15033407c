package battery_test

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/internal/apicount"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/internal/webhookhost"
	"github.com/fsmserve/fsmserve/test/battery"
	"github.com/fsmserve/fsmserve/webhooks"
)

// IdleWindow is how long the idle manager is watched.
var IdleWindow = time.Minute

// startWholeManager runs what `fsmserve manager` runs: every controller,
// the admission webhooks over TLS and the certificate manager.
func startWholeManager(t *testing.T, h battery.Host, cfg *rest.Config) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ns := config.DefaultSystemNamespace
	port, err := webhookhost.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err := webhooks.Install(ctx, h.Client, ns, webhooks.AtURL("https://"+addr)); err != nil {
		t.Fatal(err)
	}
	srv, cm, err := webhooks.NewServer(cfg, webhooks.ServeOptions{SystemNamespace: ns, Host: "127.0.0.1", Port: port, IPs: []net.IP{net.ParseIP("127.0.0.1")}})
	if err != nil {
		t.Fatal(err)
	}
	mgr, err := controllers.NewManager(cfg, controllers.ManagerOptions{SystemNamespace: ns, Webhook: srv, Restartable: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := webhooks.Register(mgr, ns, cm); err != nil {
		t.Fatal(err)
	}
	if err := controllers.Setup(mgr, controllers.Options{SystemNamespace: ns, Clock: clock,
		TracerProvider: tracing.NewProvider("fsmserve-battery", tracetest.NewSpanRecorder()), ClusterDomain: "cluster.local"}); err != nil {
		t.Fatal(err)
	}
	stop, err := run(ctx, mgr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	readyCtx, done := context.WithTimeout(ctx, time.Minute)
	defer done()
	if err := webhooks.WaitServing(readyCtx, cm, addr); err != nil {
		t.Fatal(err)
	}
}

// TestAnIdleManagerSendsNoRequests: with five InferenceServices Ready, the
// whole manager (controllers, webhooks, certificate manager)
// sends nothing to the API server for a minute but the watches its
// informers keep open.
func TestAnIdleManagerSendsNoRequests(t *testing.T) {
	h := newHost(t)
	requests := &apicount.Log{}
	startWholeManager(t, h, requests.Attach(h.Config))
	ctx := context.Background()
	ns := "idle"
	if err := createNamespace(ctx, h.Client, ns); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		isvc := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("iris-%d", i)},
			Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
				SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: ptr("gs://bucket/iris")}}}}}
		if err := h.Client.Create(ctx, isvc); err != nil {
			t.Fatal(err)
		}
	}
	// The defaulting webhook set the finalizer: admission is on.
	first := &v1beta1.InferenceService{}
	if err := h.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "iris-0"}, first); err != nil {
		t.Fatal(err)
	}
	if len(first.Finalizers) == 0 {
		t.Fatal("admission is not on: the defaulting webhook did not set the finalizer")
	}
	waitAllReady(t, h.Client, ns)
	// Let the last Events and status writes land before the window opens.
	time.Sleep(2 * time.Second)
	requests.Reset()
	time.Sleep(IdleWindow)
	got := requests.Snapshot()
	t.Logf("idle %s: %d requests, %d watches (re)opened", IdleWindow, apicount.Total(got.ByKind), got.Watches)
	if n := apicount.Total(got.ByKind); n != 0 {
		t.Errorf("an idle manager sent %d requests in %s: %v", n, IdleWindow, got.ByKind)
	}
}

func waitAllReady(t *testing.T, c client.Client, ns string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if err := deploymentsAvailable(context.Background(), c, ns); err != nil {
			t.Fatal(err)
		}
		list := &v1beta1.InferenceServiceList{}
		if err := c.List(context.Background(), list, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		ready := 0
		for _, isvc := range list.Items {
			if l := isvc.Status.Lifecycle; l != nil && l.State == "Ready" {
				ready++
			}
		}
		if ready == len(list.Items) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d InferenceServices Ready", ready, len(list.Items))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func createNamespace(ctx context.Context, c client.Client, name string) error {
	return c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})
}
