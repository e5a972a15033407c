package servingruntime

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

type invalidCase = admissioncases.Invalid

func loadCases(t *testing.T) []invalidCase {
	t.Helper()
	return admissioncases.Load[invalidCase](t, "testdata/invalid.yaml")
}

// decodeRuntime decodes a ServingRuntime or ClusterServingRuntime strictly.
func decodeRuntime(t *testing.T, raw json.RawMessage) client.Object {
	t.Helper()
	var meta struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	var obj client.Object
	switch meta.Kind {
	case "ServingRuntime":
		obj = &v1alpha1.ServingRuntime{}
	case "ClusterServingRuntime":
		obj = &v1alpha1.ClusterServingRuntime{}
	default:
		t.Fatalf("kind %q", meta.Kind)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		t.Fatal(err)
	}
	if obj.GetNamespace() == "" && meta.Kind == "ServingRuntime" {
		obj.SetNamespace("cases")
	}
	return obj
}

func specOf(obj client.Object) *v1alpha1.ServingRuntimeSpec {
	switch r := obj.(type) {
	case *v1alpha1.ServingRuntime:
		return &r.Spec
	case *v1alpha1.ClusterServingRuntime:
		return &r.Spec
	}
	return nil
}

func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInvalidRuntimes(t *testing.T) {
	cases := loadCases(t)
	if len(cases) < 10 {
		t.Fatalf("%d cases, want at least 10", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Name] {
			t.Fatalf("duplicate case %q", c.Name)
		}
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) { runInvalidCase(t, c) })
	}
}

func runInvalidCase(t *testing.T, c invalidCase) {
	obj := decodeRuntime(t, c.Object)
	stored := make([]client.Object, 0, len(c.Existing)+1)
	var others []NamedSpec
	for _, raw := range c.Existing {
		e := decodeRuntime(t, raw)
		stored = append(stored, e)
		others = append(others, NamedSpec{Name: e.GetName(), Spec: specOf(e)})
	}
	var old client.Object
	switch c.Operation {
	case "CREATE":
	case "UPDATE":
		old = decodeRuntime(t, c.Old)
		stored = append(stored, old)
		others = append(others, NamedSpec{Name: old.GetName(), Spec: specOf(old)})
		if errs := ValidateRuntime(specOf(old), old.GetName(), others[:len(others)-1], nil); len(errs) > 0 {
			t.Fatalf("old must be valid: %v", errs)
		}
	default:
		t.Fatalf("operation %q", c.Operation)
	}
	errs := ValidateRuntime(specOf(obj), obj.GetName(), others, nil)
	if !admissioncases.HasError(errs, c.Field, c.Message) || len(errs) != 1 {
		t.Fatalf("want only an error at %s containing %q, got:\n%s", c.Field, c.Message, admissioncases.ErrorLines(errs))
	}
	// The same verdict through the adapter, listing the runtimes it stores.
	v := &Validator{Client: fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(stored...).Build()}
	err := admit(t, v, old, obj)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), c.Field) || !strings.Contains(err.Error(), c.Message) {
		t.Fatalf("adapter: %v", err)
	}
}

// admit runs the request through the validator of the object's kind.
func admit(t *testing.T, v *Validator, old, obj client.Object) error {
	t.Helper()
	ctx := context.Background()
	switch o := obj.(type) {
	case *v1alpha1.ServingRuntime:
		val := NewServingRuntimeValidator(v)
		if old == nil {
			_, err := val.ValidateCreate(ctx, o)
			return err
		}
		_, err := val.ValidateUpdate(ctx, old.(*v1alpha1.ServingRuntime), o)
		return err
	case *v1alpha1.ClusterServingRuntime:
		val := NewClusterServingRuntimeValidator(v)
		if old == nil {
			_, err := val.ValidateCreate(ctx, o)
			return err
		}
		_, err := val.ValidateUpdate(ctx, old.(*v1alpha1.ClusterServingRuntime), o)
		return err
	}
	t.Fatalf("kind %T", obj)
	return nil
}
