package inferencegraph

import (
	"testing"

	"github.com/stretchr/testify/assert"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/steps/serving"
)

func TestServiceNamesIndexEachServiceOnce(t *testing.T) {
	ig := chain(callService("a"), callService("b"), callService("a"),
		v1alpha1.InferenceStep{InferenceTarget: v1alpha1.InferenceTarget{ServiceURL: "http://x"}})
	assert.ElementsMatch(t, []string{"a", "b"}, serviceNames(ig))
	assert.Nil(t, serviceNames(&corev1.ConfigMap{}))
}

func TestServiceChangedPassesWhatMovesAStep(t *testing.T) {
	base := readyISVC("iris")
	cases := []struct {
		why  string
		mut  func(*v1beta1.InferenceService)
		want bool
	}{
		{"a status write that changes nothing a graph reads", func(i *v1beta1.InferenceService) { i.Status.ObservedGeneration = 7 }, false},
		{"a new spec", func(i *v1beta1.InferenceService) { i.Generation = 2 }, true},
		{"Ready flips", func(i *v1beta1.InferenceService) { i.Status.Conditions[0].Status = corev1.ConditionFalse }, true},
		{"the address moves", func(i *v1beta1.InferenceService) { i.Status.Address.URL = common.NewURL("http://elsewhere") }, true},
		{"its lifecycle state changes", func(i *v1beta1.InferenceService) { i.Status.Lifecycle = &common.Lifecycle{State: "RollingOut"} }, true},
		{"its deletion starts", func(i *v1beta1.InferenceService) { i.DeletionTimestamp = &metav1.Time{} }, true},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			cur := base.DeepCopy()
			c.mut(cur)
			assert.Equal(t, c.want, serviceChanged().Update(event.UpdateEvent{ObjectOld: base, ObjectNew: cur}))
		})
	}
}

func TestWorkloadOf(t *testing.T) {
	available := func(hash string, generation, observed int64) *appsv1.Deployment {
		return &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Generation: generation},
			Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{
				Annotations: map[string]string{serving.TemplateHashAnnotation: hash}}}},
			Status: appsv1.DeploymentStatus{ObservedGeneration: observed, Replicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1,
				Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue}}},
		}
	}
	assert.True(t, workloadOf(available("h1", 1, 1), "h1").Complete())
	assert.False(t, workloadOf(available("h0", 1, 1), "h1").UpToDate, "an old graph is not up to date, even fully rolled out")
	assert.True(t, workloadOf(available("h0", 1, 1), "h1").Serving)
	assert.False(t, workloadOf(available("h1", 2, 1), "h1").UpToDate, "a spec the Deployment has not observed")
	assert.True(t, workloadOf(available("h0", 1, 1), "").UpToDate, "no desired router: the rollout alone decides")
	unavailable := available("h1", 1, 1)
	unavailable.Status.Conditions[0] = appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionFalse, Reason: "MinimumReplicasUnavailable"}
	w := workloadOf(unavailable, "h1")
	assert.False(t, w.Serving, "an Available condition that is False is not serving")
	assert.Equal(t, "MinimumReplicasUnavailable", w.Reason)
	failed := available("h1", 1, 1)
	failed.Status.Conditions = append(failed.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded", Message: "timed out"})
	assert.True(t, workloadOf(failed, "h1").Failed)
	assert.False(t, workloadOf(nil, "h1").Exists)
}
