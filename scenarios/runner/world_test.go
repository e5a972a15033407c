package runner

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// deploymentConditions renders conditions as Type=Status/Reason.
func deploymentConditions(d *appsv1.Deployment) map[string]string {
	out := map[string]string{}
	for _, c := range d.Status.Conditions {
		out[string(c.Type)] = string(c.Status) + "/" + c.Reason
	}
	return out
}

func TestDeploymentStatusChanges(t *testing.T) {
	now := metav1.NewTime(time.Unix(1000, 0))
	three := int32(3)
	tests := []struct {
		name   string
		change func(*appsv1.Deployment)
		counts [5]int32 // replicas, updated, ready, available, unavailable
		conds  map[string]string
	}{
		{"available", func(d *appsv1.Deployment) { setDeploymentAvailable(d, nil, now) }, [5]int32{3, 3, 3, 3, 0},
			map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/NewReplicaSetAvailable"}},
		{"available with replicas", func(d *appsv1.Deployment) { r := int32(5); setDeploymentAvailable(d, &r, now) }, [5]int32{5, 5, 5, 5, 0},
			map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/NewReplicaSetAvailable"}},
		{"progressing", func(d *appsv1.Deployment) { setDeploymentProgressing(d, nil, now) }, [5]int32{4, 1, 3, 3, 1},
			map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/ReplicaSetUpdated"}},
		{"unavailable", func(d *appsv1.Deployment) { setDeploymentUnavailable(d, nil, now) }, [5]int32{3, 3, 0, 0, 3},
			map[string]string{"Available": "False/MinimumReplicasUnavailable", "Progressing": "True/ReplicaSetUpdated"}},
		{"failed", func(d *appsv1.Deployment) { setDeploymentFailed(d, DeploymentFailure{}, now) }, [5]int32{3, 3, 0, 0, 3},
			map[string]string{"Available": "False/MinimumReplicasUnavailable", "Progressing": "False/ProgressDeadlineExceeded"}},
		{"failed creating replicas", func(d *appsv1.Deployment) {
			setDeploymentFailed(d, DeploymentFailure{ReplicaFailure: "FailedCreate", Message: "quota exceeded"}, now)
		}, [5]int32{3, 3, 0, 0, 3},
			map[string]string{"Available": "False/MinimumReplicasUnavailable", "Progressing": "False/ProgressDeadlineExceeded", "ReplicaFailure": "True/FailedCreate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "iris", Generation: 4}, Spec: appsv1.DeploymentSpec{Replicas: &three}}
			tt.change(d)
			s := d.Status
			assert.Equal(t, int64(4), s.ObservedGeneration)
			assert.Equal(t, tt.counts, [5]int32{s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas})
			assert.Equal(t, tt.conds, deploymentConditions(d))
		})
	}
}

func TestDeploymentConditionTimes(t *testing.T) {
	t1, t2, t3 := metav1.NewTime(time.Unix(1000, 0)), metav1.NewTime(time.Unix(2000, 0)), metav1.NewTime(time.Unix(3000, 0))
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "iris", Generation: 1}}
	setDeploymentUnavailable(d, nil, t1)
	setDeploymentAvailable(d, nil, t2)
	available := d.Status.Conditions[0]
	progressing := d.Status.Conditions[1]
	assert.Equal(t, t2, available.LastTransitionTime, "Available flipped to True")
	assert.Equal(t, t1, progressing.LastTransitionTime, "Progressing stayed True; only its reason changed")
	assert.Equal(t, t2, progressing.LastUpdateTime)

	setDeploymentAvailable(d, nil, t3)
	assert.Equal(t, t2, d.Status.Conditions[0].LastUpdateTime, "an unchanged condition is left alone")

	f := DeploymentFailure{ReplicaFailure: "FailedCreate"}
	setDeploymentFailed(d, f, t3)
	setDeploymentAvailable(d, nil, t3)
	assert.NotContains(t, deploymentConditions(d), "ReplicaFailure", "a successful rollout clears ReplicaFailure")
	assert.Contains(t, d.Status.Conditions[1].Message, `ReplicaSet "iris-`)
}

func TestPodReady(t *testing.T) {
	now := metav1.NewTime(time.Unix(1000, 0))
	p := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "kserve-container", Image: "sklearn"}}}}
	setPodReady(p, now)
	assert.Equal(t, corev1.PodRunning, p.Status.Phase)
	require.Len(t, p.Status.ContainerStatuses, 1)
	assert.True(t, p.Status.ContainerStatuses[0].Ready)
	ready := map[corev1.PodConditionType]corev1.ConditionStatus{}
	for _, c := range p.Status.Conditions {
		ready[c.Type] = c.Status
	}
	assert.Equal(t, corev1.ConditionTrue, ready[corev1.PodReady])
	assert.Equal(t, corev1.ConditionTrue, ready[corev1.ContainersReady])
}
