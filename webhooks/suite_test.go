package webhooks_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/testenv"
	"github.com/fsmserve/fsmserve/internal/webhookhost"
)

// The suite runs every webhook for real: a kube-apiserver and etcd (envtest),
// fsmserve's webhook server on loopback with the certificate it issues
// itself, the configurations from webhooks/endpoints.go pointing at it, and
// the caBundle injected by fsmserve's certificate manager. Every request in
// these tests goes API server -> TLS -> handler.
var (
	env     *testenv.Env
	cluster client.Client
)

func TestMain(m *testing.M) {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(errorLevel())))
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhook suite:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	var err error
	if env, err = testenv.Start(testenv.Options{}); err != nil {
		return 0, err
	}
	defer func() { _ = env.Stop() }()
	cluster = env.Client
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := startWebhooks(ctx); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

func startWebhooks(ctx context.Context) error {
	ns := config.DefaultSystemNamespace
	if err := cluster.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		return err
	}
	docs, err := config.DefaultManifests()
	if err != nil {
		return err
	}
	if err := devcluster.ApplyManifests(ctx, env.Config, docs...); err != nil {
		return err
	}
	_, err = webhookhost.Start(ctx, env.Config, ns)
	return err
}

func newNamespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "admission-"}}
	if err := cluster.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}
