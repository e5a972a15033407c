// Command ensure-assets builds the local cluster's binaries into the cache
// outside the clone (once per machine) and prints the envtest assets
// directory, for KUBEBUILDER_ASSETS, as its last line on stdout. Progress
// goes to stderr.
//
//	go run ./hack/ensure-assets            # etcd, kube-*, kwok
//	go run ./hack/ensure-assets --jaeger   # and Jaeger
//	go run ./hack/ensure-assets --only=etcd,kwok
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/fsmserve/fsmserve/internal/devcluster"
)

func main() {
	jaeger := flag.Bool("jaeger", false, "also build Jaeger (about 8 minutes cold on 2 cores)")
	only := flag.String("only", "", "comma-separated binaries to build (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, jaeger); default all")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *jaeger, *only); err != nil {
		fmt.Fprintln(os.Stderr, "ensure-assets:", err)
		stop()
		os.Exit(1)
	}
}

func run(ctx context.Context, jaeger bool, only string) error {
	opts := devcluster.EnsureOptions{Jaeger: jaeger, Progress: os.Stderr}
	if only != "" {
		opts.Only = strings.Split(only, ",")
		opts.Jaeger = jaeger || strings.Contains(only, devcluster.BinJaeger)
	}
	if _, err := devcluster.EnsureBinaries(ctx, opts); err != nil {
		return err
	}
	if only != "" {
		return nil
	}
	dir, err := devcluster.EnvtestAssetsDir(ctx, os.Stderr)
	if err != nil {
		return err
	}
	fmt.Println(dir)
	return nil
}
