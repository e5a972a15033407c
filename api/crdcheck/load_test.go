package crdcheck

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/internal/roundtrip"
)

const crdDir = "../../config/crd/bases"

var sampleDirs = []string{"../v1beta1/testdata", "../v1alpha1/testdata"}

// crd is a generated CRD file and what the API server would build from it.
type crd struct {
	file       string
	size       int
	v1         *apiextensionsv1.CustomResourceDefinition
	internal   *apiextensions.CustomResourceDefinition
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
	cel        *cel.Validator // nil when the schema has no CEL rules
}

// loadCRDs reads every generated CRD, keyed by kind.
func loadCRDs(t *testing.T) map[string]*crd {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(crdDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in %s: %v", crdDir, err)
	}
	out := map[string]*crd{}
	for _, f := range files {
		c := loadCRD(t, f)
		out[c.v1.Spec.Names.Kind] = c
	}
	return out
}

func loadCRD(t *testing.T, file string) *crd {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &crd{file: filepath.Base(file), size: len(data), v1: &apiextensionsv1.CustomResourceDefinition{}}
	if err := yaml.UnmarshalStrict(data, c.v1); err != nil {
		t.Fatalf("%s: %v", c.file, err)
	}
	if len(c.v1.Spec.Versions) != 1 {
		t.Fatalf("%s: %d versions, the checks expect one", c.file, len(c.v1.Spec.Versions))
	}
	c.internal = &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(c.v1, c.internal, nil); err != nil {
		t.Fatalf("%s: convert: %v", c.file, err)
	}
	// The internal form hoists a schema that every version shares to spec.validation.
	validation := c.internal.Spec.Validation
	if validation == nil {
		validation = c.internal.Spec.Versions[0].Schema
	}
	schema := validation.OpenAPIV3Schema
	if c.structural, err = structuralschema.NewStructural(schema); err != nil {
		t.Fatalf("%s: structural schema: %v", c.file, err)
	}
	if c.validator, _, err = apiservervalidation.NewSchemaValidator(schema); err != nil {
		t.Fatalf("%s: schema validator: %v", c.file, err)
	}
	c.cel = cel.NewValidator(c.structural, true, celconfig.PerCallLimit)
	return c
}

// admit does to a sample what the API server does on create and on an
// update from old (nil for create): prune unknown fields, apply defaults,
// validate the schema and the CEL rules. It returns the pruned paths and the
// validation errors.
func (c *crd) admit(obj, old map[string]any) (pruned []string, errs field.ErrorList) {
	obj = runtime.DeepCopyJSON(obj)
	pruned = structuralpruning.PruneWithOptions(obj, c.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.Default(obj, c.structural)
	errs = apiservervalidation.ValidateCustomResource(nil, obj, c.validator)
	if c.cel != nil {
		var oldObj any
		if old != nil {
			oldObj = runtime.DeepCopyJSON(old)
		}
		celErrs, _ := c.cel.Validate(context.Background(), nil, c.structural, obj, oldObj, celconfig.RuntimeCELCostBudget)
		errs = append(errs, celErrs...)
	}
	return pruned, errs
}

// loadSamples reads every sample document of the api packages.
func loadSamples(t *testing.T) []roundtrip.Doc {
	t.Helper()
	var docs []roundtrip.Doc
	for _, dir := range sampleDirs {
		d, err := roundtrip.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d...)
	}
	if len(docs) == 0 {
		t.Fatal("no samples")
	}
	return docs
}
