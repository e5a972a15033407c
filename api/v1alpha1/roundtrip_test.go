package v1alpha1

import (
	"strings"
	"testing"

	"github.com/fsmserve/fsmserve/api/internal/roundtrip"
)

// newObject returns an empty object of each kind of this package.
var newObject = map[string]func() any{
	"ServingRuntime":           func() any { return &ServingRuntime{} },
	"ClusterServingRuntime":    func() any { return &ClusterServingRuntime{} },
	"ClusterStorageContainer":  func() any { return &ClusterStorageContainer{} },
	"InferenceGraph":           func() any { return &InferenceGraph{} },
	"LocalModelCache":          func() any { return &LocalModelCache{} },
	"LocalModelNamespaceCache": func() any { return &LocalModelNamespaceCache{} },
	"LocalModelNode":           func() any { return &LocalModelNode{} },
	"LocalModelNodeGroup":      func() any { return &LocalModelNodeGroup{} },
}

// TestSamplesRoundTrip decodes every sample in testdata strictly and checks
// that encoding it again gives the same object, and that every kind has a
// sample.
func TestSamplesRoundTrip(t *testing.T) {
	docs, err := roundtrip.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, d := range docs {
		t.Run(d.Source+"/"+d.Name(), func(t *testing.T) {
			newObj, ok := newObject[d.Kind]
			if !ok || d.APIVersion != GroupVersion.String() {
				t.Fatalf("unexpected %s %s", d.APIVersion, d.Kind)
			}
			seen[d.Kind]++
			diffs, err := roundtrip.Check(d, newObj())
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) > 0 {
				t.Errorf("round trip changed the object:\n%s", strings.Join(diffs, "\n"))
			}
		})
	}
	for kind := range newObject {
		if seen[kind] == 0 {
			t.Errorf("no sample of %s", kind)
		}
	}
	if seen["ClusterServingRuntime"] < 15 {
		t.Errorf("%d ClusterServingRuntime samples, want KServe's 15", seen["ClusterServingRuntime"])
	}
	if seen["InferenceGraph"] < 4 {
		t.Errorf("%d InferenceGraph samples, want at least KServe's 4", seen["InferenceGraph"])
	}
}
