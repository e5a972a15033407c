package inferenceservice

import (
	"encoding/json"
	"os"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/config"
)

const isvcCRD = "../../config/crd/bases/serving.kserve.io_inferenceservices.yaml"

// crdSchema is the InferenceService CRD's schema as the API server applies
// it before the webhooks see an object: pruning, defaults, validation.
type crdSchema struct {
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
}

func loadCRDSchema(t *testing.T, file string) *crdSchema {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v1 := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.Unmarshal(data, v1); err != nil {
		t.Fatal(err)
	}
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(v1, internal, nil); err != nil {
		t.Fatal(err)
	}
	validation := internal.Spec.Validation
	if validation == nil {
		validation = internal.Spec.Versions[0].Schema
	}
	s := &crdSchema{}
	if s.structural, err = structuralschema.NewStructural(validation.OpenAPIV3Schema); err != nil {
		t.Fatal(err)
	}
	if s.validator, _, err = apiservervalidation.NewSchemaValidator(validation.OpenAPIV3Schema); err != nil {
		t.Fatal(err)
	}
	return s
}

// prune fails the test when the API server would drop a field of the
// manifest as written: the case would not reach the webhook as written.
func (s *crdSchema) prune(t *testing.T, what string, raw []byte) {
	t.Helper()
	obj := decodeMap(t, what, raw)
	pruned := structuralpruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	if len(pruned) > 0 {
		t.Errorf("%s: the API server would drop %v", what, pruned)
	}
}

// validate fails the test when the schema rejects the object the
// defaulting webhook returns; the API server validates the schema after
// mutating admission and before validating admission.
func (s *crdSchema) validate(t *testing.T, what string, raw []byte) {
	t.Helper()
	obj := decodeMap(t, what, raw)
	structuraldefaulting.Default(obj, s.structural)
	if errs := apiservervalidation.ValidateCustomResource(nil, obj, s.validator); len(errs) > 0 {
		t.Errorf("%s: the CRD schema rejects it before the validating webhook: %v", what, errs.ToAggregate())
	}
}

func decodeMap(t *testing.T, what string, raw []byte) map[string]any {
	t.Helper()
	obj := map[string]any{}
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return runtime.DeepCopyJSON(obj)
}

// TestManifestsPassTheSchema: every test manifest, as written and as
// defaulted, passes the CRD schema, so through a real API server the
// webhook is what decides.
func TestManifestsPassTheSchema(t *testing.T) {
	s := loadCRDSchema(t, isvcCRD)
	check := func(name string, raw json.RawMessage) {
		s.prune(t, name, raw)
		isvc := decodeISVC(t, raw)
		Default(isvc, config.Default())
		defaulted, err := json.Marshal(isvc)
		if err != nil {
			t.Fatal(err)
		}
		s.validate(t, name+" (defaulted)", defaulted)
	}
	for _, file := range []string{"testdata/invalid.yaml", "testdata/invalid-all-capabilities.yaml"} {
		for _, c := range loadCases[invalidCase](t, file) {
			check(c.Name, c.Object)
			if c.Old != nil {
				check(c.Name+" old", c.Old)
			}
		}
	}
	for _, c := range loadCases[validCase](t, "testdata/valid.yaml") {
		check(c.Name, c.Object)
	}
}
