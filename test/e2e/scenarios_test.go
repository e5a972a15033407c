//go:build e2e

package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestScenarioTablesHoldOnTheDevCluster runs every shipped scenario table
// against `make run`'s cluster, the live host: fsmserve runs there with its
// webhooks, and kube-controller-manager, the scheduler and kwok move the
// world. `go test ./scenarios/...` runs the same tables on envtest, so each
// table is held on both hosts. A table fails the test when it fails here;
// the steps and checks this host skips are printed with their reasons.
func TestScenarioTablesHoldOnTheDevCluster(t *testing.T) {
	d := startDev(t, false)
	files, err := filepath.Glob("../../scenarios/*/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario tables: %v", err)
	}
	bin, err := filepath.Abs("../../bin/fsmserve")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"scenario", "run", "--kubeconfig", d.kubeconfig}, files...)...)
	out, runErr := cmd.CombinedOutput()
	report := string(out)
	t.Log("\n" + report)
	if runErr != nil {
		t.Fatalf("scenario tables failed on the dev cluster: %v", runErr)
	}
	summary := regexp.MustCompile(`(\d+) passed, (\d+) skipped, 0 failed \(host live\)`).FindStringSubmatch(report)
	if summary == nil {
		t.Fatalf("no summary line with 0 failures on the live host")
	}
	if got := len(regexp.MustCompile(`(?m)^(PASS|SKIP) `).FindAllString(report, -1)); got != len(files) {
		t.Errorf("%d tables reported, want %d", got, len(files))
	}
}
