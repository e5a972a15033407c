package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/internal/scenariohost"
	"github.com/fsmserve/fsmserve/scenarios/runner"
)

func newScenarioCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "scenario", Short: "Run scenario tables that specify a lifecycle"}
	var kubeconfig string
	var verbose bool
	run := &cobra.Command{
		Use:   "run FILE...",
		Short: "Run scenario tables against a fresh API server (or --kubeconfig) with fsmserve's controllers in-process",
		Long: "run starts a real kube-apiserver and etcd (from the cache `make assets` builds), or uses\n" +
			"--kubeconfig, installs fsmserve's CRDs and configuration, runs the controllers in this\n" +
			"process on a fake clock, and plays each file's steps. The cluster given with --kubeconfig\n" +
			"must not run fsmserve itself. Exit status 1 when any scenario fails.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			cmd.SilenceUsage = true
			ctrl.SetLogger(zap.New(zap.WriteTo(io.Discard)))
			// Events for objects in a scenario namespace being torn down are
			// refused; client-go's event broadcaster would print each refusal.
			klog.SetLogger(logr.Discard())
			scenarios := make([]*runner.Scenario, 0, len(files))
			for _, f := range files {
				s, err := runner.Load(f)
				if err != nil {
					return err
				}
				scenarios = append(scenarios, s)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runScenarios(ctx, cmd.OutOrStdout(), kubeconfig, verbose, scenarios)
		},
	}
	run.Flags().StringVar(&kubeconfig, "kubeconfig", "", "run against this cluster instead of a fresh envtest")
	run.Flags().BoolVarP(&verbose, "verbose", "v", false, "print each step")
	cmd.AddCommand(run)
	return cmd
}

func runScenarios(ctx context.Context, out io.Writer, kubeconfig string, verbose bool, scenarios []*runner.Scenario) error {
	opts := scenariohost.Options{Kubeconfig: kubeconfig}
	if verbose {
		opts.Progress = out
	}
	fmt.Fprintln(out, "fsmserve scenario: starting the API server and controllers...")
	host, err := scenariohost.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer host.Stop()
	failed := 0
	for _, s := range scenarios {
		host.ResetClock()
		start := time.Now()
		err := host.Harness.Run(ctx, s)
		took := time.Since(start).Round(10 * time.Millisecond)
		if err != nil {
			failed++
			fmt.Fprintf(out, "FAIL %s (%s)\n%v\n", s.File, took, err)
			continue
		}
		fmt.Fprintf(out, "PASS %s: %s (%s)\n", s.File, s.Name, took)
	}
	fmt.Fprintf(out, "%d passed, %d failed\n", len(scenarios)-failed, failed)
	if failed > 0 {
		return fmt.Errorf("%d scenario(s) failed", failed)
	}
	return nil
}
