package inferenceservice

import (
	"bytes"
	"encoding/json"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

type invalidCase = admissioncases.Invalid

// validCase is one entry of testdata/valid.yaml.
type validCase struct {
	Name     string          `json:"name"`
	Format   string          `json:"format"`
	Protocol string          `json:"protocol"`
	Object   json.RawMessage `json:"object"`
}

// decodeISVC decodes a manifest strictly: a misspelled field fails the test
// instead of silently vanishing.
func decodeISVC(t *testing.T, raw json.RawMessage) *v1beta1.InferenceService {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	isvc := &v1beta1.InferenceService{}
	if err := dec.Decode(isvc); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return isvc
}

func TestInvalidManifests(t *testing.T) {
	for _, tc := range []struct {
		file string
		caps Capabilities
		min  int
	}{
		{"testdata/invalid.yaml", CurrentCapabilities(), 70},
		{"testdata/invalid-all-capabilities.yaml", AllCapabilities(), 20},
	} {
		t.Run(tc.file, func(t *testing.T) {
			cases := admissioncases.Load[invalidCase](t, tc.file)
			if len(cases) < tc.min {
				t.Fatalf("%d cases, want at least %d", len(cases), tc.min)
			}
			checkUniqueNames(t, cases)
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) { runInvalidCase(t, c, tc.caps) })
			}
		})
	}
}

func runInvalidCase(t *testing.T, c invalidCase, caps Capabilities) {
	cfg := config.Default()
	obj := decodeISVC(t, c.Object)
	Default(obj, cfg)
	var errs field.ErrorList
	switch c.Operation {
	case "CREATE":
		if c.Old != nil {
			t.Fatal("old is only for UPDATE cases")
		}
		errs = Validate(obj, cfg, caps)
	case "UPDATE":
		old := decodeISVC(t, c.Old)
		Default(old, cfg)
		if errs := Validate(old, cfg, caps); len(errs) > 0 {
			t.Fatalf("old must be valid, got %v", errs)
		}
		obj.Status = old.Status // the API server keeps the stored status
		errs = ValidateUpdate(old, obj, cfg, caps)
	default:
		t.Fatalf("operation %q, want CREATE or UPDATE", c.Operation)
	}
	if !admissioncases.HasError(errs, c.Field, c.Message) {
		t.Fatalf("want an error at %s containing %q, got:\n%s", c.Field, c.Message, admissioncases.ErrorLines(errs))
	}
	if len(errs) != 1 {
		t.Fatalf("want exactly the one error, so no rule reports noise; got:\n%s", admissioncases.ErrorLines(errs))
	}
	err := invalid(obj, errs)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), c.Field) || !strings.Contains(err.Error(), c.Message) {
		t.Fatalf("status error %v does not carry the field and message", err)
	}
}

// checkUniqueNames: case names are unique, and so are object names, so the
// API-server suite can run every case in one namespace.
func checkUniqueNames(t *testing.T, cases []invalidCase) {
	t.Helper()
	seen, objects := map[string]bool{}, map[string]string{}
	for _, c := range cases {
		if seen[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		seen[c.Name] = true
		if c.Field == "" || c.Message == "" {
			t.Errorf("%s: field and message are required", c.Name)
		}
		name := decodeISVC(t, c.Object).Name
		if other, dup := objects[name]; dup {
			t.Errorf("%s: object name %q is also used by %s", c.Name, name, other)
		}
		objects[name] = c.Name
	}
}

func TestValidManifests(t *testing.T) {
	cases := admissioncases.Load[validCase](t, "testdata/valid.yaml")
	cfg := config.Default()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			isvc := decodeISVC(t, c.Object)
			Default(isvc, cfg)
			if errs := Validate(isvc, cfg, CurrentCapabilities()); len(errs) > 0 {
				t.Fatalf("rejected:\n%s", admissioncases.ErrorLines(errs))
			}
			if errs := ValidateUpdate(isvc, isvc.DeepCopy(), cfg, CurrentCapabilities()); len(errs) > 0 {
				t.Fatalf("a no-op update is rejected:\n%s", admissioncases.ErrorLines(errs))
			}
			p := &isvc.Spec.Predictor
			impls := p.GetImplementations()
			if len(impls) != 1 {
				t.Fatalf("%d implementations after defaulting", len(impls))
			}
			format := ""
			if p.Model != nil {
				format = p.Model.ModelFormat.Name
				if impls[0].Field != v1beta1.FieldModel {
					t.Fatalf("shorthand %s was not converted to model", impls[0].Field)
				}
				if isvc.Annotations[v1beta1.ModelFormatAnnotation] != format {
					t.Errorf("modelFormat annotation %q, want %q", isvc.Annotations[v1beta1.ModelFormatAnnotation], format)
				}
			}
			if format != c.Format {
				t.Errorf("format %q, want %q", format, c.Format)
			}
			if got := string(p.GetProtocol()); got != c.Protocol {
				t.Errorf("protocol %q, want %q", got, c.Protocol)
			}
			if isvc.Annotations[v1beta1.DeploymentModeAnnotation] != string(config.Standard) {
				t.Errorf("deployment mode annotation %q, want Standard", isvc.Annotations[v1beta1.DeploymentModeAnnotation])
			}
		})
	}
}
