//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsmserve/fsmserve/internal/apicount"
	"github.com/fsmserve/fsmserve/internal/bench"
)

// TestBenchShortVariant runs `fsmserve bench controller` with 20
// InferenceServices and fails only on the counts that do not depend on
// timing: every child is created once and never patched, the finalizer
// costs no write, uncached reads stay at one per object, and an idle
// manager sends nothing. Times, CPU and memory are printed, not checked.
func TestBenchShortVariant(t *testing.T) {
	const n = 20
	bin, err := filepath.Abs("../../bin/fsmserve")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "bench", "controller", "--n", "20", "--idle", "20s", "--json", "--work-dir", filepath.Join(work, "state"))
	cmd.Dir = work
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("bench: %v\n%s", err, errOut.String())
	}
	var r bench.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("bench report: %v\n%s", err, out.String())
	}
	var human bytes.Buffer
	_ = r.Print(&human, false)
	t.Log("\n" + human.String())
	for _, child := range []string{"deployments", "services", "horizontalpodautoscalers", "ingresses"} {
		if got := r.Writes["POST "+child]; got != n {
			t.Errorf("POST %s: %d, want one per InferenceService (%d)", child, got, n)
		}
	}
	for k, v := range r.Writes {
		if strings.HasPrefix(k, "PATCH ") || strings.HasPrefix(k, "DELETE ") {
			t.Errorf("%s: %d writes; creating and readying an InferenceService patches and deletes nothing", k, v)
		}
	}
	if got := r.RolloutWrites["PATCH deployments"]; got != n {
		t.Errorf("a new model version patched the Deployments %d times, want once each (%d): %v", got, n, r.RolloutWrites)
	}
	for _, child := range []string{"services", "horizontalpodautoscalers", "ingresses"} {
		if got := r.RolloutWrites["PATCH "+child] + r.RolloutWrites["POST "+child]; got != 0 {
			t.Errorf("a new model version wrote %s %d times; it changes only the Deployment", child, got)
		}
	}
	if got := apicount.Total(r.Reads); got > n {
		t.Errorf("%d uncached reads for %d InferenceServices: %v", got, n, r.Reads)
	}
	if got := apicount.Total(r.Idle); got != 0 {
		t.Errorf("an idle manager sent %d requests: %v", got, r.Idle)
	}
}
