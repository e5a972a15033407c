package crdpatch

import (
	"encoding/json"
	"strings"
	"testing"
)

// container is a container schema with a required name and probes whose
// handlers require a port.
const container = `{"required":["name"],"properties":{"name":{"type":"string"},
 "livenessProbe":{"properties":{"httpGet":{"required":["port"]},"tcpSocket":{"required":["port"]},"grpc":{"required":["port"]}}},
 "readinessProbe":{"properties":{"httpGet":{"required":["port"]}}},
 "startupProbe":{"properties":{"httpGet":{"required":["port"]}}}}}`

func component(extra string) string {
	return `{"properties":{"sklearn":` + container + `,"containers":{"items":` + container + `}` + extra + `}}`
}

func isvcCRD(predictor string) string {
	return `{"metadata":{"name":"inferenceservices.serving.kserve.io"},"spec":{"versions":[{"schema":{"openAPIV3Schema":{"properties":{"spec":{"properties":{
 "predictor":` + predictor + `,"explainer":` + component("") + `,"transformer":` + component("") + `,
 "canary":{"items":{"properties":{"predictor":` + component("") + `}}}}}}}}}]}}`
}

func TestPatch(t *testing.T) {
	var crd map[string]any
	if err := json.Unmarshal([]byte(isvcCRD(component(`,"os":{"required":["name"]}`))), &crd); err != nil {
		t.Fatal(err)
	}
	if err := Patch(crd); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(crd)
	// What stays required: the containers' names, the grpc port and the startup probe's port.
	if got := strings.Count(string(out), `"required":["name"]`); got != 4 {
		t.Errorf("%d container names stay required, want 4 (containers of each component)", got)
	}
	if got := strings.Count(string(out), `"required":["port"]`); got != 4*2*2 {
		t.Errorf("%d ports stay required, want 16 (grpc and startupProbe, sklearn and containers, 4 components)", got)
	}
	again, _ := json.Marshal(crd)
	if err := Patch(crd); err != nil {
		t.Fatal(err)
	}
	if twice, _ := json.Marshal(crd); string(twice) != string(again) {
		t.Error("patching twice changed more")
	}
}

func TestPatchLeavesOtherCRDsAlone(t *testing.T) {
	raw := `{"metadata":{"name":"servingruntimes.serving.kserve.io"},"spec":{"versions":[{"schema":{"openAPIV3Schema":{"required":["spec"]}}}]}}`
	var crd map[string]any
	_ = json.Unmarshal([]byte(raw), &crd)
	if err := Patch(crd); err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(crd); string(out) != raw {
		t.Errorf("changed to %s", out)
	}
}

func TestPatchFailsWhenTheSchemaMoved(t *testing.T) {
	for name, raw := range map[string]string{
		"no versions":  `{"metadata":{"name":"inferenceservices.serving.kserve.io"},"spec":{}}`,
		"no canary":    strings.Replace(isvcCRD(component("")), `"canary"`, `"canaries"`, 1),
		"no sklearn":   isvcCRD(`{"properties":{"containers":{"items":{}}}}`),
		"no container": isvcCRD(`{"properties":{"sklearn":` + container + `}}`),
	} {
		var crd map[string]any
		if err := json.Unmarshal([]byte(raw), &crd); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Patch(crd); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
