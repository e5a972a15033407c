//go:build e2e

package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// shorthandSamples are KServe's published samples for each framework
// shorthand, as the admission tests keep them.
var shorthandSamples = []string{"sklearn", "xgboost", "tensorflow", "pytorch", "onnx", "huggingface", "pmml", "lightgbm", "paddle", "triton"}

type sample struct {
	Name   string         `json:"name"`
	Object map[string]any `json:"object"`
}

func loadSamples(t *testing.T) map[string]map[string]any {
	t.Helper()
	raw, err := os.ReadFile("../../webhooks/inferenceservice/testdata/valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var all []sample
	if err := yaml.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, s := range all {
		out[s.Name] = s.Object
	}
	return out
}

// TestShorthandSamplesAndAdmission applies KServe's shorthand samples with
// kubectl: the defaulter converts them, the runtimes are selected, the pod
// mutator injects the storage initializer, and each reaches Ready. An invalid
// manifest is refused by the validator with a message naming the field.
func TestShorthandSamplesAndAdmission(t *testing.T) {
	d := startDev(t, false)
	samples := loadSamples(t)
	var names []string
	downloads := 0
	for _, name := range shorthandSamples {
		obj, ok := samples[name]
		if !ok {
			t.Fatalf("sample %s missing from valid.yaml", name)
		}
		raw, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), "storageUri:") {
			downloads++ // the Hugging Face sample pulls from the hub itself
		}
		d.kubectl(t, string(raw), "apply", "-f", "-")
		names = append(names, "isvc/"+obj["metadata"].(map[string]any)["name"].(string))
	}
	start := time.Now()
	d.kubectl(t, "", append([]string{"wait", "--for=condition=Ready", "--timeout=60s"}, names...)...)
	t.Logf("%d shorthand samples Ready %.1fs after kubectl apply", len(names), time.Since(start).Seconds())

	// kubectl apply again: its three-way merge brings the shorthand back
	// beside the model the defaulter made of it; that must be admitted.
	again, _ := yaml.Marshal(samples["sklearn"])
	d.kubectl(t, string(again), "apply", "-f", "-")

	formats := d.kubectl(t, "", "get", "isvc", "-o", "jsonpath={range .items[*]}{.spec.predictor.model.modelFormat.name} {end}")
	for _, f := range []string{"sklearn", "xgboost", "tensorflow", "pytorch", "onnx", "huggingface", "pmml", "lightgbm", "paddle", "triton"} {
		if !strings.Contains(formats, f) {
			t.Errorf("no InferenceService was defaulted to model format %s: %s", f, formats)
		}
	}
	inits := d.kubectl(t, "", "get", "pods", "-o", "jsonpath={range .items[*]}{.spec.initContainers[*].name} {end}")
	if strings.Count(inits, "storage-initializer") != downloads {
		t.Errorf("want a storage initializer in each of the %d pods whose model is downloaded, got: %s", downloads, inits)
	}

	out, err := d.kubectlErr(`apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: bad-replicas}
spec: {predictor: {minReplicas: -1, sklearn: {storageUri: gs://bucket/model}}}
`, "apply", "-f", "-")
	if err == nil || !strings.Contains(out, "spec.predictor.minReplicas") || !strings.Contains(out, "must be 0 or more") {
		t.Fatalf("kubectl apply of an invalid manifest: err %v, output:\n%s", err, out)
	}
}
