package crdschema

import "testing"

func TestSchemaPrunesAndValidatesAsTheAPIServer(t *testing.T) {
	s, err := Load("../../config/crd/bases/serving.kserve.io_localmodelcaches.yaml")
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{
		"apiVersion": "serving.kserve.io/v1alpha1", "kind": "LocalModelCache",
		"metadata": map[string]any{"name": "m"},
		"spec":     map[string]any{"sourceModelUri": "gs://b/m", "modelSize": "1Gi", "nodeGroups": []any{"g"}, "typo": true},
	}
	if pruned := s.Pruned(obj); len(pruned) != 1 || pruned[0] != "spec.typo" {
		t.Errorf("Pruned = %v, want [spec.typo]", pruned)
	}
	if _, still := obj["spec"].(map[string]any)["typo"]; !still {
		t.Error("Pruned changed its argument")
	}
	if err := s.Invalid(obj); err != nil {
		t.Errorf("a valid cache is rejected: %v", err)
	}
	obj["spec"].(map[string]any)["modelSize"] = []any{"not", "a", "quantity"}
	if err := s.Invalid(obj); err == nil {
		t.Error("a list where modelSize wants a quantity passes the schema")
	}
	if _, err := Load("missing.yaml"); err == nil {
		t.Error("loading a missing file succeeds")
	}
}
