package localmodel

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
)

// crdFiles are the CRDs of the kinds the cases use.
var crdFiles = map[string]string{
	"LocalModelCache":          "../../config/crd/bases/serving.kserve.io_localmodelcaches.yaml",
	"LocalModelNamespaceCache": "../../config/crd/bases/serving.kserve.io_localmodelnamespacecaches.yaml",
	"LocalModelNodeGroup":      "../../config/crd/bases/serving.kserve.io_localmodelnodegroups.yaml",
	"InferenceService":         "../../config/crd/bases/serving.kserve.io_inferenceservices.yaml",
}

type crdSchema struct {
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
}

func loadSchema(t *testing.T, file string) crdSchema {
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
		for _, v := range internal.Spec.Versions {
			if v.Storage {
				validation = v.Schema
			}
		}
	}
	var s crdSchema
	if s.structural, err = structuralschema.NewStructural(validation.OpenAPIV3Schema); err != nil {
		t.Fatal(err)
	}
	if s.validator, _, err = apiservervalidation.NewSchemaValidator(validation.OpenAPIV3Schema); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCasesPassTheSchema keeps the cases honest: through a real API server
// it is the webhook that rejects them, not the CRD schema, and nothing is
// pruned on the way.
func TestCasesPassTheSchema(t *testing.T) {
	schemas := map[string]crdSchema{}
	for kind, file := range crdFiles {
		schemas[kind] = loadSchema(t, file)
	}
	check := func(what string, raw json.RawMessage) {
		obj := map[string]any{}
		if err := json.Unmarshal(raw, &obj); err != nil {
			t.Fatal(err)
		}
		kind, _ := obj["kind"].(string)
		s, ok := schemas[kind]
		if !ok {
			t.Fatalf("%s: kind %q", what, kind)
		}
		obj = runtime.DeepCopyJSON(obj)
		if pruned := structuralpruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}); len(pruned) > 0 {
			t.Errorf("%s: the API server would drop %v", what, pruned)
		}
		structuraldefaulting.Default(obj, s.structural)
		if errs := apiservervalidation.ValidateCustomResource(nil, obj, s.validator); len(errs) > 0 {
			t.Errorf("%s: the CRD schema rejects it before the webhook: %v", what, errs.ToAggregate())
		}
	}
	for _, c := range loadCases(t) {
		check(c.Name, c.Object)
		if c.Old != nil {
			check(c.Name+" old", c.Old)
		}
		for i, e := range c.Existing {
			check(c.Name+" existing "+string(rune('0'+i)), e)
		}
	}
}
