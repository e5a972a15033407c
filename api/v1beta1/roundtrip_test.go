package v1beta1

import (
	"strings"
	"testing"

	"github.com/fsmserve/fsmserve/api/internal/roundtrip"
)

// TestSamplesRoundTrip decodes every sample in testdata strictly and checks
// that encoding it again gives the same object: a field missing from the Go
// types fails the strict decode, a renamed or mistyped one fails the
// comparison.
func TestSamplesRoundTrip(t *testing.T) {
	docs, err := roundtrip.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 30 {
		t.Fatalf("found %d sample documents, want at least 30", len(docs))
	}
	for _, d := range docs {
		t.Run(d.Source+"/"+d.Name(), func(t *testing.T) {
			if d.APIVersion != GroupVersion.String() || d.Kind != "InferenceService" {
				t.Fatalf("unexpected %s %s", d.APIVersion, d.Kind)
			}
			diffs, err := roundtrip.Check(d, &InferenceService{})
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) > 0 {
				t.Errorf("round trip changed the object:\n%s", strings.Join(diffs, "\n"))
			}
		})
	}
}

// TestRoundTripNotices shows that the round trip notices a field the types
// do not have: the strict decode fails, or the comparison finds a difference
// (encoding/json matches field names regardless of case).
func TestRoundTripNotices(t *testing.T) {
	cases := map[string]string{
		// KServe's rollout-strategy sample uses this stale field; KServe's CRD rejects it too.
		"stale transformer.custom": `
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: x}
spec:
  predictor: {sklearn: {storageUri: "gs://a"}}
  transformer: {custom: {container: {image: t}}}`,
		"misspelled field": `
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: x}
spec:
  predictor: {sklearn: {storageURI: "gs://a"}}`,
		"duplicate field": `
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: x}
spec:
  predictor: {minReplicas: 1, minReplicas: 2}`,
		"metric quantity that is not a quantity": `
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: x}
spec:
  predictor:
    autoScaling:
      metrics: [{type: External, external: {metric: {query: q}, target: {type: Value, value: ten}}}]`,
	}
	for name, manifest := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := roundtrip.Parse(name, []byte(manifest))
			if err != nil {
				t.Fatal(err)
			}
			diffs, err := roundtrip.Check(d, &InferenceService{})
			if err == nil && len(diffs) == 0 {
				t.Fatal("round trip noticed nothing")
			}
		})
	}
}
