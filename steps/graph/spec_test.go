package graph

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

func step(target v1alpha1.InferenceTarget) v1alpha1.InferenceStep {
	return v1alpha1.InferenceStep{InferenceTarget: target}
}

func dogBreedSpec() *v1alpha1.InferenceGraphSpec {
	return &v1alpha1.InferenceGraphSpec{Nodes: map[string]v1alpha1.InferenceRouter{
		"root": {RouterType: v1alpha1.Sequence, Steps: []v1alpha1.InferenceStep{
			step(v1alpha1.InferenceTarget{ServiceName: "cat-dog"}),
			step(v1alpha1.InferenceTarget{NodeName: "breeds"}),
		}},
		"breeds": {RouterType: v1alpha1.Switch, Steps: []v1alpha1.InferenceStep{
			step(v1alpha1.InferenceTarget{ServiceName: "dog-breed"}),
			step(v1alpha1.InferenceTarget{ServiceName: "cat-breed", ServiceURL: "http://cats.example/v1/models/cat:predict"}),
		}},
	}}
}

func TestServiceStepsSkipsExplicitURLsInStableOrder(t *testing.T) {
	assert.Equal(t, []StepRef{{Node: "breeds", Index: 0}, {Node: "root", Index: 0}}, ServiceSteps(dogBreedSpec()))
}

func TestCheck(t *testing.T) {
	cases := []struct {
		why  string
		mut  func(*v1alpha1.InferenceGraphSpec)
		want string
	}{
		{"a good graph passes", func(*v1alpha1.InferenceGraphSpec) {}, ""},
		{"root is required", func(s *v1alpha1.InferenceGraphSpec) { delete(s.Nodes, "root") }, "spec.nodes.root is missing"},
		{"a nodeName must name a node", func(s *v1alpha1.InferenceGraphSpec) { delete(s.Nodes, "breeds") }, "spec.nodes.root.steps[1].nodeName names node \"breeds\""},
		{"a step needs a target", func(s *v1alpha1.InferenceGraphSpec) {
			s.Nodes["breeds"].Steps[0] = v1alpha1.InferenceStep{StepName: "empty"}
		}, "spec.nodes.breeds.steps[0] has no target"},
		{"a placeholder left in a serviceUrl", func(s *v1alpha1.InferenceGraphSpec) {
			s.Nodes["breeds"].Steps[1].ServiceURL = "http://single-1.default.{$your-domain}/switch"
		}, "spec.nodes.breeds.steps[1].serviceUrl \"http://single-1.default.{$your-domain}/switch\" does not parse"},
		{"a relative serviceUrl", func(s *v1alpha1.InferenceGraphSpec) { s.Nodes["breeds"].Steps[1].ServiceURL = "/v1/models/cat:predict" }, "is not an http or https URL"},
		{"an empty Sequence", func(s *v1alpha1.InferenceGraphSpec) {
			s.Nodes["empty"] = v1alpha1.InferenceRouter{RouterType: v1alpha1.Sequence}
		}, "spec.nodes.empty.steps is empty"},
		{"a negative weight", func(s *v1alpha1.InferenceGraphSpec) { s.Nodes["breeds"].Steps[0].Weight = ptr(int64(-5)) }, "spec.nodes.breeds.steps[0].weight is -5"},
		{"nodes in a cycle", func(s *v1alpha1.InferenceGraphSpec) {
			s.Nodes["breeds"].Steps[0] = step(v1alpha1.InferenceTarget{NodeName: "root"})
		}, "spec.nodes form a cycle breeds -> root -> breeds"},
		{"a serviceUrl without host", func(s *v1alpha1.InferenceGraphSpec) { s.Nodes["breeds"].Steps[1].ServiceURL = "http:///x" }, "has no host"},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			spec := dogBreedSpec()
			c.mut(spec)
			err := Check(spec)
			if c.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestResolvedJSONFillsURLsAndLeavesTheSpecAlone(t *testing.T) {
	spec := dogBreedSpec()
	raw, err := ResolvedJSON(spec, map[StepRef]string{
		{Node: "root", Index: 0}:   "http://cat-dog-predictor.ns.svc.cluster.local/v1/models/cat-dog:predict",
		{Node: "breeds", Index: 0}: "http://dog-breed-predictor.ns.svc.cluster.local/v2/models/dog/infer",
	})
	require.NoError(t, err)
	var got v1alpha1.InferenceGraphSpec
	require.NoError(t, json.Unmarshal(raw, &got))
	assert.Equal(t, "http://cat-dog-predictor.ns.svc.cluster.local/v1/models/cat-dog:predict", got.Nodes["root"].Steps[0].ServiceURL)
	assert.Equal(t, "cat-dog", got.Nodes["root"].Steps[0].ServiceName, "serviceName stays for people reading the JSON")
	assert.Equal(t, "http://cats.example/v1/models/cat:predict", got.Nodes["breeds"].Steps[1].ServiceURL)
	assert.Empty(t, spec.Nodes["root"].Steps[0].ServiceURL, "the graph itself is not changed")
	again, err := ResolvedJSON(spec, map[StepRef]string{
		{Node: "breeds", Index: 0}: "http://dog-breed-predictor.ns.svc.cluster.local/v2/models/dog/infer",
		{Node: "root", Index: 0}:   "http://cat-dog-predictor.ns.svc.cluster.local/v1/models/cat-dog:predict",
	})
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(again), "the same graph gives the same bytes")
	_, err = ResolvedJSON(spec, map[StepRef]string{{Node: "root", Index: 9}: "http://x"})
	assert.ErrorContains(t, err, "spec.nodes.root.steps[9]")
}
