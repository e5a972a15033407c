//go:build e2e

package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// TestGraphSamplesReachReady applies KServe's InferenceGraph samples
// (sequence, splitter, switch, ensemble) with kubectl beside the
// InferenceServices they name: each graph's router is deployed on the fake
// nodes and the graph reaches Ready. The switch sample is published with a
// {$your-domain} placeholder in its URLs, which admission refuses by field
// until it is filled in.
func TestGraphSamplesReachReady(t *testing.T) {
	d := startDev(t, false)
	samples := loadSamples(t)
	for _, name := range []string{"sklearn", "xgboost"} {
		raw, err := yaml.Marshal(samples[name])
		if err != nil {
			t.Fatal(err)
		}
		d.kubectl(t, string(raw), "apply", "-f", "-")
	}
	switchRaw := readGraph(t, "switch")
	out, err := d.kubectlErr(switchRaw, "apply", "-f", "-")
	if err == nil || !strings.Contains(out, "serviceUrl") {
		t.Fatalf("the switch sample with its placeholder domain must be refused naming serviceUrl; err %v:\n%s", err, out)
	}
	d.kubectl(t, strings.ReplaceAll(switchRaw, "{$your-domain}", "example.com"), "apply", "-f", "-")
	for _, g := range []string{"sequence", "splitter", "ensemble"} {
		d.kubectl(t, readGraph(t, g), "apply", "-f", "-")
	}
	start := time.Now()
	d.kubectl(t, "", "wait", "--for=condition=Ready", "--timeout=90s",
		"ig/model-chainer", "ig/splitter-model", "ig/model-switch", "ig/ensemble-model")
	t.Logf("4 graph samples Ready %.1fs after kubectl apply", time.Since(start).Seconds())
	get := d.kubectl(t, "", "get", "ig")
	if strings.Count(get, "Ready") < 4 || !strings.Contains(get, "http://model-chainer-default.example.com") {
		t.Errorf("kubectl get ig:\n%s", get)
	}
	args := d.kubectl(t, "", "get", "deploy", "model-chainer", "-o", "jsonpath={.spec.template.spec.containers[0].args}")
	if !strings.Contains(args, "http://sklearn-iris-predictor.default.svc.cluster.local/v1/models/sklearn-iris:predict") {
		t.Errorf("the router's graph does not call the resolved InferenceService: %s", args)
	}
}

func readGraph(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile("../../api/v1alpha1/testdata/graphs/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
