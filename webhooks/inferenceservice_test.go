package webhooks_test

import (
	"context"
	"encoding/json"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

func TestInvalidInferenceServicesAreRejectedOverTLS(t *testing.T) {
	cases := admissioncases.Load[invalidCase](t, "inferenceservice/testdata/invalid.yaml")
	if len(cases) < 60 {
		t.Fatalf("want at least 60 invalid manifests, have %d", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { expectRejected(t, c) })
	}
}

type validCase struct {
	Name     string          `json:"name"`
	Format   string          `json:"format"`
	Protocol string          `json:"protocol"`
	Object   json.RawMessage `json:"object"`
}

// TestKServeSamplesAreAdmittedAndDefaulted applies KServe's published
// shorthand samples and reads back what the defaulter made of them.
func TestKServeSamplesAreAdmittedAndDefaulted(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t)
	for _, c := range admissioncases.Load[validCase](t, "inferenceservice/testdata/valid.yaml") {
		t.Run(c.Name, func(t *testing.T) {
			obj := object(t, c.Object, ns)
			if err := cluster.Create(ctx, obj); err != nil {
				t.Fatalf("rejected: %v", err)
			}
			got := &v1beta1.InferenceService{}
			if err := cluster.Get(ctx, client.ObjectKeyFromObject(obj), got); err != nil {
				t.Fatal(err)
			}
			if got.Annotations[v1beta1.DeploymentModeAnnotation] != "Standard" {
				t.Errorf("deployment mode annotation %q, want Standard", got.Annotations[v1beta1.DeploymentModeAnnotation])
			}
			// Set at admission, so the controller spends no write on it.
			if len(got.Finalizers) != 1 || got.Finalizers[0] != v1beta1.InferenceServiceFinalizer {
				t.Errorf("finalizers %v, want [%s]", got.Finalizers, v1beta1.InferenceServiceFinalizer)
			}
			if c.Format == "" {
				return
			}
			m := got.Spec.Predictor.Model
			if m == nil || m.ModelFormat.Name != c.Format {
				t.Fatalf("predictor not converted to model.modelFormat %s: %+v", c.Format, got.Spec.Predictor)
			}
			if c.Protocol != "" && (m.ProtocolVersion == nil || string(*m.ProtocolVersion) != c.Protocol) && c.Protocol != "v1" {
				t.Errorf("protocol %v, want %s", m.ProtocolVersion, c.Protocol)
			}
		})
	}
}

func TestRuntimeValidatorsOverTLS(t *testing.T) {
	for _, c := range admissioncases.Load[invalidCase](t, "servingruntime/testdata/invalid.yaml") {
		t.Run(c.Name, func(t *testing.T) { expectRejected(t, c) })
	}
}

func TestInvalidInferenceGraphsAreRejectedOverTLS(t *testing.T) {
	for _, c := range admissioncases.Load[invalidCase](t, "inferencegraph/testdata/invalid.yaml") {
		t.Run(c.Name, func(t *testing.T) { expectRejected(t, c) })
	}
}

func TestInvalidLocalModelCachesAreRejectedOverTLS(t *testing.T) {
	for _, c := range admissioncases.Load[invalidCase](t, "localmodel/testdata/invalid.yaml") {
		t.Run(c.Name, func(t *testing.T) { expectRejected(t, c) })
	}
}
