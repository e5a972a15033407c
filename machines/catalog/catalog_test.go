package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fsmserve/fsmserve/internal/golden"
)

// TestDocsAreCurrent keeps docs/machines in step with the declarations:
// `make generate` rewrites them.
func TestDocsAreCurrent(t *testing.T) {
	for _, e := range All() {
		if err := e.Machine.Validate(); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("..", "..", "docs", "machines")
		golden.Assert(t, filepath.Join(dir, e.Name+".md"), e.Machine.Markdown(e.Title, e.Intro))
		golden.Assert(t, filepath.Join(dir, e.Name+".dot"), e.Machine.DOT())
	}
}

func TestGet(t *testing.T) {
	if _, ok := Get("inferenceservice"); !ok {
		t.Fatal("inferenceservice machine missing")
	}
	if _, ok := Get("nope"); ok {
		t.Fatal("unknown machine found")
	}
	if _, err := os.Stat("catalog.go"); err != nil {
		t.Fatal(err)
	}
}
