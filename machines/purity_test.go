// Package machines_test keeps the lifecycle machines pure.
package machines_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestMachinesImportNoClient enforces the design rule that machines/ decides
// without talking to the cluster: no client-go, no controller-runtime.
func TestMachinesImportNoClient(t *testing.T) {
	forbidden := []string{"k8s.io/client-go", "sigs.k8s.io/controller-runtime"}
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			for _, bad := range forbidden {
				if strings.HasPrefix(strings.Trim(imp.Path.Value, `"`), bad) {
					t.Errorf("%s imports %s; machines must stay pure", path, imp.Path.Value)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files found under machines/")
	}
}
