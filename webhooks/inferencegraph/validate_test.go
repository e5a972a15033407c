package inferencegraph

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
)

func TestInvalidGraphs(t *testing.T) {
	for _, c := range admissioncases.Load[admissioncases.Invalid](t, "testdata/invalid.yaml") {
		t.Run(c.Name, func(t *testing.T) {
			g := &v1alpha1.InferenceGraph{}
			if err := json.Unmarshal(c.Object, g); err != nil {
				t.Fatal(err)
			}
			errs := Validate(g)
			if len(errs) != 1 {
				t.Fatalf("want exactly one error, got %v", errs)
			}
			if errs[0].Field != c.Field || !strings.Contains(errs[0].Error(), c.Message) {
				t.Fatalf("got %s: %s", errs[0].Field, errs[0].Error())
			}
		})
	}
}

func TestKServeGraphSamplesAreValid(t *testing.T) {
	w20, w80 := int64(20), int64(80)
	g := &v1alpha1.InferenceGraph{}
	g.Name = "splitter-model"
	g.Spec.Nodes = map[string]v1alpha1.InferenceRouter{
		"root": {RouterType: v1alpha1.Splitter, Steps: []v1alpha1.InferenceStep{
			{InferenceTarget: v1alpha1.InferenceTarget{ServiceName: "sklearn-iris"}, Weight: &w20},
			{InferenceTarget: v1alpha1.InferenceTarget{ServiceName: "xgboost-iris"}, Weight: &w80}}},
	}
	if errs := Validate(g); len(errs) != 0 {
		t.Fatal(errs)
	}
	if _, err := (Validator{}).ValidateCreate(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}
