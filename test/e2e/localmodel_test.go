//go:build e2e

package e2e

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestLocalModelCacheFlow is the README's local model walk-through on the
// dev cluster: a node group and a cache are applied, each node's agent runs
// one download Job (kwok completes its pod) and reaches Downloaded, the
// cache is Ready with a copy per node, and an InferenceService with the same
// storageUri is labelled for the cache and its pod mounts the serving claim
// read-only instead of downloading.
func TestLocalModelCacheFlow(t *testing.T) {
	d := startDev(t, false)
	raw, err := os.ReadFile("testdata/localmodelcache.yaml")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	d.kubectl(t, string(raw), "apply", "-f", "-")
	d.kubectl(t, "", "wait", "--for=jsonpath={.status.lifecycle.state}=Ready", "--timeout=90s", "localmodelcache/iris")
	t.Logf("cache Ready on 2 nodes %.1fs after kubectl apply", time.Since(start).Seconds())
	for _, node := range []string{"fsmserve-node-0", "fsmserve-node-1"} {
		status := d.kubectl(t, "", "get", "localmodelnode", node, "-o", "jsonpath={.status.modelStatus.iris}")
		if status != "ModelDownloaded" {
			t.Errorf("localmodelnode %s: modelStatus.iris = %q, want ModelDownloaded", node, status)
		}
	}
	jobs := d.kubectl(t, "", "get", "jobs", "-n", "kserve-localmodel-jobs", "-o", "name")
	if n := len(strings.Fields(jobs)); n != 2 {
		t.Errorf("want one download Job per node (2), got %d:\n%s", n, jobs)
	}
	copies := d.kubectl(t, "", "get", "localmodelcache", "iris", "-o", "jsonpath={.status.copies.available}/{.status.copies.total}")
	if copies != "2/2" {
		t.Errorf("cache copies available/total = %s, want 2/2", copies)
	}

	d.kubectl(t, `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: sklearn-iris}
spec: {predictor: {model: {modelFormat: {name: sklearn}, storageUri: gs://kfserving-examples/models/sklearn/1.0/model}}}
`, "apply", "-f", "-")
	d.kubectl(t, "", "wait", "--for=condition=Ready", "--timeout=90s", "isvc/sklearn-iris")
	label := d.kubectl(t, "", "get", "isvc", "sklearn-iris", "-o", `jsonpath={.metadata.labels.internal\.serving\.kserve\.io/localmodel}`)
	if label != "iris" {
		t.Errorf("InferenceService not labelled for the cache: localmodel label %q", label)
	}
	pod := d.kubectl(t, "", "get", "pod", "-l", "serving.kserve.io/inferenceservice=sklearn-iris", "-o",
		"jsonpath={.items[0].spec.volumes[?(@.persistentVolumeClaim)].persistentVolumeClaim}|{.items[0].spec.initContainers[*].name}")
	claim, inits, _ := strings.Cut(pod, "|")
	if !strings.Contains(claim, `"claimName":"iris-gpus"`) || !strings.Contains(claim, `"readOnly":true`) {
		t.Errorf("predictor pod does not mount the serving claim iris-gpus read-only: %s", claim)
	}
	if strings.Contains(inits, "storage-initializer") {
		t.Errorf("predictor pod still downloads the model (init containers %q)", inits)
	}
}
