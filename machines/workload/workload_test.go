package workload

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func deployment(generation, observed int64, replicas, updated, available int32, conds ...appsv1.DeploymentCondition) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Generation: generation},
		Spec:       appsv1.DeploymentSpec{Replicas: &replicas},
		Status: appsv1.DeploymentStatus{ObservedGeneration: observed, Replicas: replicas, UpdatedReplicas: updated,
			AvailableReplicas: available, Conditions: conds},
	}
}

var (
	availableTrue  = appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"}
	availableFalse = appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionFalse, Reason: "MinimumReplicasUnavailable", Message: "Deployment does not have minimum availability."}
	deadline       = appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded", Message: "ReplicaSet has timed out progressing."}
	replicaFailure = appsv1.DeploymentCondition{Type: appsv1.DeploymentReplicaFailure, Status: corev1.ConditionTrue, Message: "pods \"x\" is forbidden: exceeded quota"}
)

func TestOf(t *testing.T) {
	cases := []struct {
		name     string
		d        *appsv1.Deployment
		current  bool
		want     Workload
		complete bool
	}{
		{"absent", nil, true, Workload{}, false},
		{"rolled out and available", deployment(2, 2, 2, 2, 2, availableTrue), true,
			Workload{Exists: true, Serving: true, UpToDate: true, Available: 2, Desired: 2}, true},
		{"a template that is not the current one is not up to date", deployment(2, 2, 2, 2, 2, availableTrue), false,
			Workload{Exists: true, Serving: true, Available: 2, Desired: 2}, false},
		{"status older than the spec", deployment(3, 2, 2, 2, 2, availableTrue), true,
			Workload{Exists: true, Serving: true, Available: 2, Desired: 2}, false},
		{"old replicas still running", deployment(2, 2, 3, 2, 2, availableTrue), true,
			Workload{Exists: true, Serving: true, Available: 2, Desired: 3}, false},
		{"unavailable names the condition", deployment(1, 1, 1, 1, 0, availableFalse), true,
			Workload{Exists: true, Reason: "MinimumReplicasUnavailable", Message: "Deployment does not have minimum availability.", Desired: 1}, false},
		{"no condition yet says the counts", deployment(1, 1, 1, 0, 0), true,
			Workload{Exists: true, Message: "0 of 1 replicas available", Desired: 1}, false},
		{"progress deadline fails", deployment(1, 1, 1, 1, 0, availableFalse, deadline), true,
			Workload{Exists: true, Failed: true, Reason: "ProgressDeadlineExceeded", Message: "ReplicaSet has timed out progressing.", Desired: 1}, false},
		{"replica failure without a reason gets one", deployment(1, 1, 1, 0, 0, replicaFailure), true,
			Workload{Exists: true, Failed: true, Reason: "ReplicaFailure", Message: "pods \"x\" is forbidden: exceeded quota", Desired: 1}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Of(c.d, c.current)
			if got != c.want {
				t.Fatalf("got %+v\nwant %+v", got, c.want)
			}
			if got.Complete() != c.complete {
				t.Fatalf("Complete() = %v, want %v", got.Complete(), c.complete)
			}
		})
	}
}

func TestDesiredReplicasDefaultsToOne(t *testing.T) {
	if got := DesiredReplicas(&appsv1.Deployment{}); got != 1 {
		t.Fatalf("got %d", got)
	}
}
