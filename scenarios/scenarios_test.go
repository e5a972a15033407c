// Package scenarios_test runs every scenario table under scenarios/ against a
// real API server (envtest) with fsmserve's controllers in-process.
package scenarios_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fsmserve/fsmserve/internal/scenariohost"
	"github.com/fsmserve/fsmserve/scenarios/runner"
)

var host *scenariohost.Host

func TestMain(m *testing.M) {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapLevelError())))
	klog.SetLogger(logr.Discard())
	var err error
	if host, err = scenariohost.Start(context.Background(), scenariohost.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, "scenarios:", err)
		os.Exit(1)
	}
	code := m.Run()
	host.Stop()
	os.Exit(code)
}

// TestScenarios runs each table as a subtest, one at a time: they share the
// fake clock and inferenceservice-config.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("*", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files found: %v", err)
	}
	for _, file := range files {
		s, err := runner.Load(file)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		t.Run(file, func(t *testing.T) {
			host.ResetClock()
			if err := host.Harness.Run(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		})
	}
}
