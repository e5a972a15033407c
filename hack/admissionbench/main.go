// Command admissionbench prints admission latency (p50, p99) for the
// InferenceService defaulter+validator and the pod mutator at a steady request
// rate against a real API server (envtest from the cache), with the API
// server's own cost measured in the same run as the baseline.
//
//	go run ./hack/admissionbench [--rate 50] [--duration 20s]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/admissionbench"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/testenv"
	"github.com/fsmserve/fsmserve/internal/webhookhost"
)

func main() {
	rate := flag.Int("rate", 50, "requests per second, per target")
	d := flag.Duration("duration", 20*time.Second, "how long each target is measured")
	flag.Parse()
	if err := run(*rate, *d); err != nil {
		fmt.Fprintln(os.Stderr, "admissionbench:", err)
		os.Exit(1)
	}
}

func run(rate int, d time.Duration) error {
	ctrl.SetLogger(zap.New(zap.WriteTo(io.Discard)))
	env, err := testenv.Start(testenv.Options{})
	if err != nil {
		return err
	}
	defer func() { _ = env.Stop() }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ns := config.DefaultSystemNamespace
	if err := env.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		return err
	}
	docs, err := config.DefaultManifests()
	if err != nil {
		return err
	}
	if err := devcluster.ApplyManifests(ctx, env.Config, docs...); err != nil {
		return err
	}
	if _, err := webhookhost.Start(ctx, env.Config, ns); err != nil {
		return err
	}
	if err := admissionbench.Prepare(ctx, env.Client, "bench"); err != nil {
		return err
	}
	// The load generator must not be the bottleneck: client-go defaults to 5
	// requests/s.
	cfg := rest.CopyConfig(env.Config)
	cfg.QPS, cfg.Burst = 1000, 1000
	c, err := client.New(cfg, client.Options{Scheme: env.Scheme})
	if err != nil {
		return err
	}
	figs := admissionbench.Run(ctx, c, admissionbench.Targets("bench"), rate, d)
	admissionbench.Print(os.Stdout, figs, admissionbench.Baseline, rate, d)
	return nil
}
