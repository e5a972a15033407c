// Package crdschema applies a CRD's structural schema to an object the way
// the API server does around admission: pruning unknown fields, defaulting,
// validating. Admission tests use it to prove their manifests reach the
// webhook as written, so a rejection through a real API server is the
// webhook's and not the schema's.
package crdschema

import (
	"fmt"
	"os"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// Schema is the storage version's schema of one CRD.
type Schema struct {
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
}

// Load reads a CRD manifest (config/crd/bases/...) and prepares its schema.
func Load(file string) (*Schema, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	v1 := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.Unmarshal(data, v1); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(v1, internal, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	validation := internal.Spec.Validation
	for _, v := range internal.Spec.Versions {
		if validation == nil && v.Storage {
			validation = v.Schema
		}
	}
	if validation == nil || validation.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("%s: no schema for the storage version", file)
	}
	s := &Schema{}
	if s.structural, err = structuralschema.NewStructural(validation.OpenAPIV3Schema); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if s.validator, _, err = apiservervalidation.NewSchemaValidator(validation.OpenAPIV3Schema); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return s, nil
}

// Pruned lists the fields of obj the API server would drop; obj is untouched.
func (s *Schema) Pruned(obj map[string]any) []string {
	return structuralpruning.PruneWithOptions(runtime.DeepCopyJSON(obj), s.structural, true,
		structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
}

// Invalid returns the schema's errors for obj once defaulted (nil when the
// schema accepts it); obj is untouched.
func (s *Schema) Invalid(obj map[string]any) error {
	obj = runtime.DeepCopyJSON(obj)
	structuraldefaulting.Default(obj, s.structural)
	if errs := apiservervalidation.ValidateCustomResource(nil, obj, s.validator); len(errs) > 0 {
		return errs.ToAggregate()
	}
	return nil
}
