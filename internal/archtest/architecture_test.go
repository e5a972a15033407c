package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is this repository's module path; moduleRoot is where its go.mod
// lives, relative to this directory.
const (
	module     = "github.com/fsmserve/fsmserve"
	moduleRoot = "../.."
)

// rule is one layering "never". It applies to every non-test .go file whose
// slash-separated path relative to the module root is dir or under dir/.
// Patterns follow `go list`: "x/..." matches x and every package under it,
// a plain "x" matches x only. An import breaks the rule when it matches a
// forbidden pattern and no allowed pattern.
type rule struct {
	name      string
	dir       string
	why       string
	forbidden []string
	allowed   []string
}

var rules = []rule{
	{
		name: "machines stay pure",
		dir:  "machines",
		why:  "machines decide without a cluster client and depend on nothing that drives them (steps, controllers, webhooks, router, cmd, dev and scenario tooling)",
		forbidden: []string{
			"k8s.io/client-go/...",
			"sigs.k8s.io/controller-runtime/...",
			module + "/steps/...",
			module + "/controllers/...",
			module + "/webhooks/...",
			module + "/router/...",
			module + "/cmd/...",
			module + "/internal/devcluster/...",
			module + "/internal/scenariohost/...",
			module + "/scenarios/...",
		},
	},
	{
		name: "steps know no controller",
		dir:  "steps",
		why:  "steps are called by controllers and may use a client, never the reconcile machinery nor the machines",
		forbidden: []string{
			module + "/controllers/...",
			module + "/machines/...",
			// The root package re-exports Manager, Builder, Result and Request.
			"sigs.k8s.io/controller-runtime",
			"sigs.k8s.io/controller-runtime/pkg/controller/...",
			"sigs.k8s.io/controller-runtime/pkg/manager/...",
			"sigs.k8s.io/controller-runtime/pkg/reconcile/...",
			"sigs.k8s.io/controller-runtime/pkg/builder/...",
			"sigs.k8s.io/controller-runtime/pkg/handler/...",
		},
		allowed: []string{
			// Client-side helpers (owner references, CreateOrUpdate), not the
			// controller machinery its parent directory holds.
			"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil",
		},
	},
	{
		name: "router is not the control plane",
		dir:  "router",
		why:  "the data-plane router shares nothing with the control plane (api, config, controllers, machines, steps, webhooks)",
		forbidden: []string{
			module + "/...",
		},
		allowed: []string{
			module + "/router/...",
			// Shared trace-context helpers; router does not import it today.
			module + "/internal/tracing/...",
		},
	},
	{
		name:      "api stands alone",
		dir:       "api",
		why:       "the API types are imported by everything and import nothing else of this module",
		forbidden: []string{module + "/..."},
		allowed:   []string{module + "/api/..."},
	},
	{
		name:      "webhooks know no controller",
		dir:       "webhooks",
		why:       "admission runs beside the controllers, never through them",
		forbidden: []string{module + "/controllers/..."},
	},
	{
		name:      "controllers know no webhook",
		dir:       "controllers",
		why:       "controllers reconcile what admission let in, without calling the webhooks",
		forbidden: []string{module + "/webhooks/..."},
	},
}

// match reports whether importPath matches a `go list` style pattern.
func match(pattern, importPath string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return importPath == base || strings.HasPrefix(importPath, base+"/")
	}
	return importPath == pattern
}

func matchAny(patterns []string, importPath string) bool {
	for _, p := range patterns {
		if match(p, importPath) {
			return true
		}
	}
	return false
}

// appliesTo reports whether the rule covers file, a slash-separated path
// relative to the module root.
func (r rule) appliesTo(file string) bool {
	return strings.HasPrefix(file, r.dir+"/")
}

// checkFile returns one message per rule that one of file's imports breaks.
func checkFile(rules []rule, file string, imports []string) []string {
	var out []string
	for _, r := range rules {
		if !r.appliesTo(file) {
			continue
		}
		for _, imp := range imports {
			if matchAny(r.forbidden, imp) && !matchAny(r.allowed, imp) {
				out = append(out, fmt.Sprintf("%s imports %q: rule %q: %s", file, imp, r.name, r.why))
			}
		}
	}
	return out
}

// sourceFiles returns the imports of every non-test .go file of the module,
// keyed by slash-separated path relative to the module root. Like the go
// command it skips testdata, vendor and directories starting with . or _;
// build constraints are ignored, so every platform's files are checked.
func sourceFiles(t *testing.T) map[string][]string {
	t.Helper()
	goMod, err := os.ReadFile(filepath.Join(moduleRoot, "go.mod"))
	if err != nil {
		t.Fatalf("module root %s: %v", moduleRoot, err)
	}
	if f := strings.Fields(string(goMod)); len(f) < 2 || f[0] != "module" || f[1] != module {
		t.Fatalf("%s/go.mod is not module %s", moduleRoot, module)
	}
	files := map[string][]string{}
	err = filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != moduleRoot && (name == "testdata" || name == "vendor" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(moduleRoot, path)
		if err != nil {
			return err
		}
		imports := []string{}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: import %s: %w", path, imp.Path.Value, err)
			}
			imports = append(imports, p)
		}
		files[filepath.ToSlash(rel)] = imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestLayering enforces the rules on the repository's non-test files.
func TestLayering(t *testing.T) {
	files := sourceFiles(t)
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			checked := 0
			for _, file := range slices.Sorted(maps.Keys(files)) {
				if !r.appliesTo(file) {
					continue
				}
				checked++
				for _, msg := range checkFile([]rule{r}, file, files[file]) {
					t.Error(msg)
				}
			}
			if checked == 0 {
				t.Fatalf("no non-test .go file found under %s/: the rule checked nothing", r.dir)
			}
		})
	}
}

// TestCheckFileCatchesViolations feeds the real rules made-up files.
func TestCheckFileCatchesViolations(t *testing.T) {
	tests := []struct {
		file    string
		imports []string
		broken  []string // rule names, in table order
	}{
		{"machines/engine/x.go", []string{"k8s.io/client-go/rest"}, []string{"machines stay pure"}},
		{"machines/x.go", []string{"sigs.k8s.io/controller-runtime"}, []string{"machines stay pure"}},
		{"machines/engine/x.go", []string{module + "/internal/devcluster"}, []string{"machines stay pure"}},
		{"machines/engine/x.go", []string{module + "/api/v1beta1", module + "/internal/golden", "k8s.io/apimachinery/pkg/runtime"}, nil},
		{"steps/apply/x.go", []string{module + "/machines/engine"}, []string{"steps know no controller"}},
		{"steps/apply/x.go", []string{"sigs.k8s.io/controller-runtime/pkg/reconcile"}, []string{"steps know no controller"}},
		{"steps/apply/x.go", []string{"sigs.k8s.io/controller-runtime"}, []string{"steps know no controller"}},
		{"steps/apply/x.go", []string{"sigs.k8s.io/controller-runtime/pkg/client", "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"}, nil},
		{"router/x.go", []string{module + "/api/v1beta1"}, []string{"router is not the control plane"}},
		{"router/bench/x.go", []string{module + "/internal/scheme"}, []string{"router is not the control plane"}},
		{"router/bench/x.go", []string{module + "/router", module + "/internal/tracing"}, nil},
		{"api/v1beta1/x.go", []string{module + "/config"}, []string{"api stands alone"}},
		{"api/v1beta1/x.go", []string{module + "/api/common", module + "/api/internal/crdpatch"}, nil},
		{"webhooks/pod/x.go", []string{module + "/controllers/lifecycle"}, []string{"webhooks know no controller"}},
		{"controllers/lifecycle/x.go", []string{module + "/webhooks"}, []string{"controllers know no webhook"}},
		{"controllers/lifecycle/x.go", []string{"sigs.k8s.io/controller-runtime/pkg/webhook"}, nil},
		// Prefixes end at a path element.
		{"apis/x.go", []string{module + "/config"}, nil},
		{"api/x.go", []string{module + "/apix"}, []string{"api stands alone"}},
		{"machines/x.go", []string{"k8s.io/client-gox", module + "/stepsx"}, nil},
	}
	for _, tt := range tests {
		got := checkFile(rules, tt.file, tt.imports)
		if len(got) != len(tt.broken) {
			t.Errorf("%s importing %q: got %d violations %q, want rules %q", tt.file, tt.imports, len(got), got, tt.broken)
			continue
		}
		for i, name := range tt.broken {
			if !strings.Contains(got[i], strconv.Quote(name)) || !strings.HasPrefix(got[i], tt.file+" imports ") {
				t.Errorf("violation %q does not name file %s and rule %q", got[i], tt.file, name)
			}
		}
	}
}
