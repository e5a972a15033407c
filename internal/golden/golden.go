// Package golden compares test output with committed golden files. Run the
// tests with -update (or FSMSERVE_UPDATE_GOLDEN=1) to rewrite them after an
// intended change; the diff then shows in review.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// Updating reports whether golden files are being rewritten.
func Updating() bool { return *update || os.Getenv("FSMSERVE_UPDATE_GOLDEN") == "1" }

// Assert fails t when got differs from the file at path (relative to the test's
// package directory), or rewrites the file when updating.
func Assert(t testing.TB, path string, got string) {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s missing: run the test with -update to create it (%v)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s is stale; run `make generate` (or the test with -update) and review the diff.\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
