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
		Short: "Run scenario tables against a fresh API server, or against a cluster where fsmserve runs (--kubeconfig)",
		Long: "run starts a real kube-apiserver and etcd (from the cache `make assets` builds), installs\n" +
			"fsmserve's CRDs and configuration, runs the controllers in this process on a fake clock, and\n" +
			"plays each file's steps, playing the Deployment, Job and Pod controllers envtest lacks.\n" +
			"With --kubeconfig it plays them against a cluster where fsmserve runs (make run's, or yours):\n" +
			"nothing is started or installed, the cluster's own controllers move the world, and a step\n" +
			"the cluster has no real means for is skipped and listed with the reason. Exit status 1 when\n" +
			"any scenario fails.",
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
	run.Flags().StringVar(&kubeconfig, "kubeconfig", "", "run against this cluster, where fsmserve runs, instead of a fresh envtest")
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
	failed, skipped := 0, 0
	for _, s := range scenarios {
		host.ResetClock()
		start := time.Now()
		outcome, err := host.Harness.RunOutcome(ctx, s)
		took := time.Since(start).Round(10 * time.Millisecond)
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(out, "FAIL %s (%s)\n%v\n", s.File, took, err)
		case outcome.Skipped != "":
			skipped++
			fmt.Fprintf(out, "SKIP %s: %s\n  %s\n", s.File, s.Name, outcome.Skipped)
		default:
			fmt.Fprintf(out, "PASS %s: %s (%s)\n", s.File, s.Name, took)
		}
		printSkips(out, outcome)
	}
	fmt.Fprintf(out, "%d passed, %d skipped, %d failed (host %s)\n", len(scenarios)-failed-skipped, skipped, failed, host.Harness.Host.Name)
	if failed > 0 {
		return fmt.Errorf("%d scenario(s) failed", failed)
	}
	return nil
}

// printSkips lists the steps and checks a host could not take.
func printSkips(out io.Writer, o *runner.Outcome) {
	if o == nil {
		return
	}
	for _, s := range o.SkippedSteps {
		fmt.Fprintf(out, "  skipped %s\n", s)
	}
	for _, s := range o.SkippedChecks {
		fmt.Fprintf(out, "  not checked in %s\n", s)
	}
}
