package kubesim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestDeploymentStatusChanges(t *testing.T) {
	now := metav1.NewTime(time.Unix(1000, 0))
	three := int32(3)
	tests := []struct {
		name   string
		change func(*appsv1.Deployment)
		counts [5]int32 // replicas, updated, ready, available, unavailable
		conds  map[string]string
	}{
		{"available", func(d *appsv1.Deployment) { Available(d, nil, now) }, [5]int32{3, 3, 3, 3, 0},
			map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/NewReplicaSetAvailable"}},
		{"available with replicas", func(d *appsv1.Deployment) { r := int32(5); Available(d, &r, now) }, [5]int32{5, 5, 5, 5, 0},
			map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/NewReplicaSetAvailable"}},
		{"progressing", func(d *appsv1.Deployment) { Progressing(d, nil, now) }, [5]int32{4, 1, 3, 3, 1},
			map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/ReplicaSetUpdated"}},
		{"unavailable", func(d *appsv1.Deployment) { Unavailable(d, nil, now) }, [5]int32{3, 3, 0, 0, 3},
			map[string]string{"Available": "False/MinimumReplicasUnavailable", "Progressing": "True/ReplicaSetUpdated"}},
		{"failed", func(d *appsv1.Deployment) { Failed(d, Failure{}, now) }, [5]int32{3, 3, 0, 0, 3},
			map[string]string{"Available": "False/MinimumReplicasUnavailable", "Progressing": "False/ProgressDeadlineExceeded"}},
		{"failed creating replicas", func(d *appsv1.Deployment) {
			Failed(d, Failure{ReplicaFailure: "FailedCreate", Message: "quota exceeded"}, now)
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
			assert.Equal(t, tt.conds, Conditions(d))
		})
	}
}

func TestDeploymentConditionTimes(t *testing.T) {
	t1, t2, t3 := metav1.NewTime(time.Unix(1000, 0)), metav1.NewTime(time.Unix(2000, 0)), metav1.NewTime(time.Unix(3000, 0))
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "iris", Generation: 1}}
	Unavailable(d, nil, t1)
	Available(d, nil, t2)
	available := d.Status.Conditions[0]
	progressing := d.Status.Conditions[1]
	assert.Equal(t, t2, available.LastTransitionTime, "Available flipped to True")
	assert.Equal(t, t1, progressing.LastTransitionTime, "Progressing stayed True; only its reason changed")
	assert.Equal(t, t2, progressing.LastUpdateTime)

	Available(d, nil, t3)
	assert.Equal(t, t2, d.Status.Conditions[0].LastUpdateTime, "an unchanged condition is left alone")

	f := Failure{ReplicaFailure: "FailedCreate"}
	Failed(d, f, t3)
	Available(d, nil, t3)
	assert.NotContains(t, Conditions(d), "ReplicaFailure", "a successful rollout clears ReplicaFailure")
	assert.Contains(t, d.Status.Conditions[1].Message, `ReplicaSet "iris-`)
}
