//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"
)

const sklearnSample = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: sklearn-iris
spec:
  predictor:
    sklearn:
      storageUri: gs://kfserving-examples/models/sklearn/1.0/model
`

// TestRolloutIsOneTraceInJaeger is the quickstart, checked: the KServe sample
// applied with kubectl reaches Ready on the local cluster within 30 s, kubectl
// shows its state and lifecycle, and its rollout is one trace in Jaeger whose
// spans name the transitions.
func TestRolloutIsOneTraceInJaeger(t *testing.T) {
	d := startDev(t, true)
	d.kubectl(t, sklearnSample, "apply", "-f", "-")
	start := time.Now()
	d.kubectl(t, "", "wait", "--for=condition=Ready", "isvc/sklearn-iris", "--timeout=30s")
	t.Logf("sklearn-iris Ready %.1fs after kubectl apply", time.Since(start).Seconds())

	get := d.kubectl(t, "", "get", "isvc", "sklearn-iris")
	for _, col := range []string{"URL", "READY", "STATE", "http://sklearn-iris-default.example.com", "True", "Ready"} {
		if !strings.Contains(get, col) {
			t.Errorf("kubectl get isvc lacks %q:\n%s", col, get)
		}
	}
	describe := d.kubectl(t, "", "describe", "isvc", "sklearn-iris")
	for _, want := range []string{"Lifecycle:", "State:           Ready", "Previous State:  Deploying", "Trace ID:", "RolloutSucceeded", "Deploying -> Ready (RolloutSucceeded)"} {
		if !strings.Contains(describe, want) {
			t.Errorf("kubectl describe isvc lacks %q:\n%s", want, describe)
		}
	}

	traceID := strings.TrimSpace(d.kubectl(t, "", "get", "isvc", "sklearn-iris", "-o", "jsonpath={.status.lifecycle.traceID}"))
	tr, why := waitForTrace(traceID, rolloutComplete, 30*time.Second)
	if tr == nil {
		t.Fatalf("trace %s never showed the whole rollout: %s", traceID, why)
	}
	checkSpanTree(t, tr)
}

// rolloutComplete says what is still missing from the rollout's trace.
func rolloutComplete(tr *jaegerTrace) string {
	var ops, targets []string
	for _, s := range tr.Data[0].Spans {
		ops = append(ops, s.OperationName)
		if s.OperationName == "Transition" {
			targets = append(targets, tag(s.Tags, "sm.to"))
		}
	}
	for _, want := range []string{"Lifecycle InferenceService", "Reconcile InferenceService", "Step EnsurePredictor"} {
		if !slices.Contains(ops, want) {
			return "no " + want + " span yet; spans: " + strings.Join(ops, ", ")
		}
	}
	for _, want := range []string{"Resolving", "Deploying", "Ready"} {
		if !slices.Contains(targets, want) {
			return "no Transition to " + want + " yet; transitions to: " + strings.Join(targets, ", ")
		}
	}
	return ""
}

// checkSpanTree asserts the shape: one root (the episode), every reconcile a
// child of it, every transition a child of a reconcile, with its edge in tags.
func checkSpanTree(t *testing.T, tr *jaegerTrace) {
	spans := tr.Data[0].Spans
	parent := map[string]string{}
	op := map[string]string{}
	for _, s := range spans {
		op[s.SpanID] = s.OperationName
		for _, r := range s.References {
			if r.RefType == "CHILD_OF" {
				parent[s.SpanID] = r.SpanID
			}
		}
	}
	roots := 0
	for _, s := range spans {
		switch s.OperationName {
		case "Lifecycle InferenceService":
			roots++
			if _, has := parent[s.SpanID]; has {
				t.Errorf("the episode root has a parent")
			}
			if got := tag(s.Tags, "sm.episode.outcome"); got != "Ready" {
				t.Errorf("episode outcome %q, want Ready", got)
			}
		case "Reconcile InferenceService":
			if op[parent[s.SpanID]] != "Lifecycle InferenceService" {
				t.Errorf("reconcile span %s is a child of %q, want the episode root", s.SpanID, op[parent[s.SpanID]])
			}
			if tag(s.Tags, "k8s.object.name") != "sklearn-iris" {
				t.Errorf("reconcile span lacks k8s.object.name")
			}
		case "Transition":
			if op[parent[s.SpanID]] != "Reconcile InferenceService" {
				t.Errorf("transition span is a child of %q", op[parent[s.SpanID]])
			}
			if tag(s.Tags, "sm.from") == "" || tag(s.Tags, "sm.trigger") == "" || tag(s.Tags, "sm.machine") != "inferenceservice" {
				t.Errorf("transition span lacks sm.* tags: %v", s.Tags)
			}
		}
	}
	if roots != 1 {
		t.Errorf("want exactly one episode root span, got %d", roots)
	}
}
