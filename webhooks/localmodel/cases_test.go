package localmodel

import (
	"context"
	"encoding/json"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// casesNamespace is where namespaced objects of a case go in these tests.
const casesNamespace = "cases"

type invalidCase = admissioncases.Invalid

func loadCases(t *testing.T) []invalidCase {
	t.Helper()
	return admissioncases.Load[invalidCase](t, "testdata/invalid.yaml")
}

func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := v1beta1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// decode decodes a manifest strictly into the typed object of its kind.
func decode(t *testing.T, raw json.RawMessage) client.Object {
	t.Helper()
	var meta struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	var obj client.Object
	switch meta.Kind {
	case "LocalModelCache":
		obj = &v1alpha1.LocalModelCache{}
	case "LocalModelNamespaceCache":
		obj = &v1alpha1.LocalModelNamespaceCache{}
	case "LocalModelNodeGroup":
		obj = &v1alpha1.LocalModelNodeGroup{}
	case "InferenceService":
		obj = &v1beta1.InferenceService{}
	default:
		t.Fatalf("kind %q", meta.Kind)
	}
	if err := yaml.UnmarshalStrict(raw, obj); err != nil {
		t.Fatal(err)
	}
	if meta.Kind == "LocalModelNamespaceCache" || meta.Kind == "InferenceService" {
		obj.SetNamespace(casesNamespace)
	}
	return obj
}

func TestInvalidCaches(t *testing.T) {
	cases := loadCases(t)
	if len(cases) < 8 {
		t.Fatalf("%d cases, want at least 8", len(cases))
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
	obj := decode(t, c.Object)
	var stored []client.Object
	for _, raw := range c.Existing {
		stored = append(stored, decode(t, raw))
	}
	var old client.Object
	switch c.Operation {
	case "CREATE":
	case "UPDATE":
		old = decode(t, c.Old)
		stored = append(stored, old)
	case "DELETE":
		stored = append(stored, obj)
	default:
		t.Fatalf("operation %q", c.Operation)
	}
	cl := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(stored...).Build()
	if old != nil {
		if err := admit(t, cl, "CREATE", nil, old); err != nil {
			t.Fatalf("old must be valid: %v", err)
		}
	}
	err := admit(t, cl, c.Operation, old, obj)
	switch {
	case err == nil:
		t.Fatalf("admitted; want an error containing %q", c.Message)
	case c.Operation == "DELETE" && !apierrors.IsForbidden(err):
		t.Fatalf("want Forbidden, got %v", err)
	case c.Operation != "DELETE" && !apierrors.IsInvalid(err):
		t.Fatalf("want Invalid, got %v", err)
	case !strings.Contains(err.Error(), c.Field+": ") && c.Field != "":
		t.Fatalf("want an error at %s, got %v", c.Field, err)
	case !strings.Contains(err.Error(), c.Message):
		t.Fatalf("want %q in the error, got %v", c.Message, err)
	}
}

// admit runs one request through the validator of the object's kind.
func admit(t *testing.T, cl client.Reader, op string, old, obj client.Object) error {
	t.Helper()
	ctx := context.Background()
	var err error
	switch o := obj.(type) {
	case *v1alpha1.LocalModelCache:
		v := &CacheValidator{Client: cl}
		switch op {
		case "CREATE":
			_, err = v.ValidateCreate(ctx, o)
		case "UPDATE":
			_, err = v.ValidateUpdate(ctx, old.(*v1alpha1.LocalModelCache), o)
		default:
			_, err = v.ValidateDelete(ctx, o)
		}
	case *v1alpha1.LocalModelNamespaceCache:
		v := &NamespaceCacheValidator{Client: cl}
		switch op {
		case "CREATE":
			_, err = v.ValidateCreate(ctx, o)
		case "UPDATE":
			_, err = v.ValidateUpdate(ctx, old.(*v1alpha1.LocalModelNamespaceCache), o)
		default:
			_, err = v.ValidateDelete(ctx, o)
		}
	default:
		t.Fatalf("kind %T", obj)
	}
	return err
}
