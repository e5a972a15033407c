package inferenceservice_test

import (
	"context"
	"slices"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

func sklearn(ns string) *v1beta1.InferenceService {
	uri := "gs://kfserving-examples/models/sklearn/1.0/model"
	return &v1beta1.InferenceService{
		ObjectMeta: metav1.ObjectMeta{Name: "sklearn-iris", Namespace: ns},
		Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
			SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}}},
	}
}

func TestSklearnSampleReachesReady(t *testing.T) {
	ns := newNamespace(t)
	ctx := context.Background()
	if err := env.Client.Create(ctx, sklearn(ns)); err != nil {
		t.Fatal(err)
	}
	eventually(t, 15*time.Second, func() string {
		isvc := getISVC(t, ns, "sklearn-iris")
		if l := isvc.Status.Lifecycle; l == nil || l.State != "Deploying" {
			return stateAndConditions(isvc)
		}
		return ""
	})
	d := &appsv1.Deployment{}
	if err := env.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "sklearn-iris-predictor"}, d); err != nil {
		t.Fatal(err)
	}
	makeAvailable(t, ns, "sklearn-iris-predictor")
	var isvc *v1beta1.InferenceService
	eventually(t, 15*time.Second, func() string {
		isvc = getISVC(t, ns, "sklearn-iris")
		if l := isvc.Status.Lifecycle; l == nil || l.State != "Ready" || !isvc.Status.IsConditionTrue(v1beta1.Ready) {
			return stateAndConditions(isvc)
		}
		return ""
	})
	if got := isvc.Status.URL.String(); got != "http://sklearn-iris-"+ns+".example.com" {
		t.Errorf("url = %s", got)
	}
	if isvc.Status.ClusterServingRuntimeName != "kserve-sklearnserver" {
		t.Errorf("runtime = %q", isvc.Status.ClusterServingRuntimeName)
	}
	eventually(t, 10*time.Second, func() string {
		reasons := eventReasons(t, ns, string(isvc.UID))
		for _, want := range []string{"Admitted", "RuntimeResolved", "RolloutSucceeded"} {
			if !slices.Contains(reasons, want) {
				return "events so far: " + joinStrings(reasons)
			}
		}
		return ""
	})
}

func joinStrings(s []string) string {
	out := ""
	for _, x := range s {
		out += x + ","
	}
	return out
}

// TestRolloutSpanTree checks, with the SDK's in-memory recorder, that one
// rollout is one trace: the episode root, a reconcile span per reconcile that
// did something, a Transition span per edge with its tags, and step spans.
func TestRolloutSpanTree(t *testing.T) {
	ns := newNamespace(t)
	isvc := sklearn(ns)
	isvc.Name = "traced"
	if err := env.Client.Create(context.Background(), isvc); err != nil {
		t.Fatal(err)
	}
	makeAvailable(t, ns, "traced-predictor")
	var traceID string
	eventually(t, 15*time.Second, func() string {
		got := getISVC(t, ns, "traced")
		if got.Status.Lifecycle == nil || got.Status.Lifecycle.State != "Ready" {
			return stateAndConditions(got)
		}
		traceID = got.Status.Lifecycle.TraceID
		return ""
	})
	eventually(t, 5*time.Second, func() string {
		tree := spanTree(traceID)
		if tree["Lifecycle InferenceService"] == 0 {
			return "no root span yet"
		}
		return ""
	})
	byID := map[string]sdktrace.ReadOnlySpan{}
	var root sdktrace.ReadOnlySpan
	var transitions []string
	for _, s := range spans.Ended() {
		if s.SpanContext().TraceID().String() != traceID {
			continue
		}
		byID[s.SpanContext().SpanID().String()] = s
		if s.Name() == "Lifecycle InferenceService" {
			root = s
		}
	}
	if root == nil || root.Parent().IsValid() {
		t.Fatalf("want one parentless episode root, got %v", root)
	}
	for _, s := range byID {
		parent := byID[s.Parent().SpanID().String()]
		switch s.Name() {
		case "Reconcile InferenceService":
			if s.Parent().SpanID() != root.SpanContext().SpanID() {
				t.Errorf("a reconcile span is not a child of the episode root")
			}
		case "Transition":
			if parent == nil || parent.Name() != "Reconcile InferenceService" {
				t.Errorf("a transition span is not a child of a reconcile span")
			}
			transitions = append(transitions, attr(s, "sm.from")+"->"+attr(s, "sm.to"))
		case "Step EnsurePredictor":
			if parent == nil || parent.Name() != "Reconcile InferenceService" {
				t.Errorf("a step span is not a child of a reconcile span")
			}
		}
	}
	for _, want := range []string{"Pending->Resolving", "Resolving->Deploying", "Deploying->Ready"} {
		if !slices.Contains(transitions, want) {
			t.Errorf("transition %s missing from the trace; have %v", want, transitions)
		}
	}
}

func spanTree(traceID string) map[string]int {
	out := map[string]int{}
	for _, s := range spans.Ended() {
		if s.SpanContext().TraceID().String() == traceID {
			out[s.Name()]++
		}
	}
	return out
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}
