package crdschema

import (
	"encoding/json"
	"testing"
)

// Kinds holds the schemas of the kinds a table of test manifests uses.
type Kinds map[string]*Schema

// LoadKinds loads kind -> CRD file, failing the test on any error.
func LoadKinds(t testing.TB, files map[string]string) Kinds {
	t.Helper()
	out := Kinds{}
	for kind, file := range files {
		s, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		out[kind] = s
	}
	return out
}

// Admit fails the test when the API server would prune a field of the
// manifest raw or its schema would reject it: the webhook would not see the
// manifest as written.
func (k Kinds) Admit(t testing.TB, what string, raw json.RawMessage) {
	t.Helper()
	obj := map[string]any{}
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	kind, _ := obj["kind"].(string)
	s, ok := k[kind]
	if !ok {
		t.Fatalf("%s: no CRD loaded for kind %q", what, kind)
	}
	if pruned := s.Pruned(obj); len(pruned) > 0 {
		t.Errorf("%s: the API server would drop %v", what, pruned)
	}
	if err := s.Invalid(obj); err != nil {
		t.Errorf("%s: the CRD schema rejects it before the webhook: %v", what, err)
	}
}
