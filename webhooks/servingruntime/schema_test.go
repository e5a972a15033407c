package servingruntime

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

var runtimeCRDs = map[string]string{
	"ServingRuntime":        "../../config/crd/bases/serving.kserve.io_servingruntimes.yaml",
	"ClusterServingRuntime": "../../config/crd/bases/serving.kserve.io_clusterservingruntimes.yaml",
}

// schema is a runtime CRD's schema as the API server applies it.
type schema struct {
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
}

func loadSchema(t *testing.T, file string) schema {
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
	var s schema
	if s.structural, err = structuralschema.NewStructural(validation.OpenAPIV3Schema); err != nil {
		t.Fatal(err)
	}
	if s.validator, _, err = apiservervalidation.NewSchemaValidator(validation.OpenAPIV3Schema); err != nil {
		t.Fatal(err)
	}
	return s
}

// admit fails the test when the API server would prune a field of raw or
// reject it by schema: the webhook would never see it as written.
func (s schema) admit(t *testing.T, what string, obj map[string]any) {
	t.Helper()
	obj = runtime.DeepCopyJSON(obj)
	if pruned := structuralpruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}); len(pruned) > 0 {
		t.Errorf("%s: the API server would drop %v", what, pruned)
	}
	structuraldefaulting.Default(obj, s.structural)
	if errs := apiservervalidation.ValidateCustomResource(nil, obj, s.validator); len(errs) > 0 {
		t.Errorf("%s: the CRD schema rejects it before the webhook: %v", what, errs.ToAggregate())
	}
}

func TestCasesPassTheSchema(t *testing.T) {
	schemas := map[string]schema{}
	for kind, file := range runtimeCRDs {
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
		s.admit(t, what, obj)
	}
	for _, c := range loadCases(t) {
		check(c.Name, c.Object)
		if c.Old != nil {
			check(c.Name+" old", c.Old)
		}
		for _, e := range c.Existing {
			check(c.Name+" existing", e)
		}
	}
}
