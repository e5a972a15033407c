package inferenceservice

import (
	"encoding/json"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"testing"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/crdschema"
)

const isvcCRD = "../../config/crd/bases/serving.kserve.io_inferenceservices.yaml"

// prune fails the test when the API server would drop a field of the
// manifest as written: the case would not reach the webhook as written.
func prune(t *testing.T, s *crdschema.Schema, what string, raw []byte) {
	t.Helper()
	if pruned := s.Pruned(decodeMap(t, what, raw)); len(pruned) > 0 {
		t.Errorf("%s: the API server would drop %v", what, pruned)
	}
}

// validate fails the test when the schema rejects the object the
// defaulting webhook returns; the API server validates the schema after
// mutating admission and before validating admission.
func validate(t *testing.T, s *crdschema.Schema, what string, raw []byte) {
	t.Helper()
	if err := s.Invalid(decodeMap(t, what, raw)); err != nil {
		t.Errorf("%s: the CRD schema rejects it before the validating webhook: %v", what, err)
	}
}

func decodeMap(t *testing.T, what string, raw []byte) map[string]any {
	t.Helper()
	obj := map[string]any{}
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return obj
}

// TestManifestsPassTheSchema: every test manifest, as written and as
// defaulted, passes the CRD schema, so through a real API server the
// webhook is what decides.
func TestManifestsPassTheSchema(t *testing.T) {
	s, err := crdschema.Load(isvcCRD)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, raw json.RawMessage) {
		prune(t, s, name, raw)
		isvc := decodeISVC(t, raw)
		Default(isvc, config.Default())
		defaulted, err := json.Marshal(isvc)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, s, name+" (defaulted)", defaulted)
	}
	for _, file := range []string{"testdata/invalid.yaml", "testdata/invalid-all-capabilities.yaml"} {
		for _, c := range admissioncases.Load[invalidCase](t, file) {
			check(c.Name, c.Object)
			if c.Old != nil {
				check(c.Name+" old", c.Old)
			}
		}
	}
	for _, c := range admissioncases.Load[validCase](t, "testdata/valid.yaml") {
		check(c.Name, c.Object)
	}
}
