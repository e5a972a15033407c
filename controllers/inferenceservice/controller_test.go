package inferenceservice_test

import (
	"context"
	"slices"
	"testing"
	"time"

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
