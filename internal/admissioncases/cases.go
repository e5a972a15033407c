// Package admissioncases reads the tables of admission cases the webhook
// packages keep in testdata (invalid.yaml and friends), for their unit tests
// and for the suite that runs the same cases through a real API server.
package admissioncases

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// Invalid is one manifest admission must refuse: the operation, the field
// the refusal names and a part of its message, the objects that must exist
// first, the stored object of an UPDATE, and the object itself.
type Invalid struct {
	Name      string            `json:"name"`
	Operation string            `json:"operation"`
	Field     string            `json:"field,omitempty"`
	Message   string            `json:"message"`
	Existing  []json.RawMessage `json:"existing,omitempty"`
	Old       json.RawMessage   `json:"old,omitempty"`
	Object    json.RawMessage   `json:"object"`
}

// Load reads a table strictly (a misspelled key fails the test) and fails
// the test when it is empty.
func Load[T any](t testing.TB, file string) []T {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []T
	if err := yaml.UnmarshalStrict(data, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s has no cases", file)
	}
	return cases
}

// HasError reports whether errs holds an error at path whose text contains message.
func HasError(errs field.ErrorList, path, message string) bool {
	for _, e := range errs {
		if e.Field == path && strings.Contains(e.Error(), message) {
			return true
		}
	}
	return false
}

// ErrorLines lists errs one per line, for failure messages.
func ErrorLines(errs field.ErrorList) string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = "  " + e.Error()
	}
	return strings.Join(lines, "\n")
}
