package inferencegraph

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/graph"
)

// workloadOf distils the router Deployment into what the machine decides on.
// Serving follows the Available condition (True, not merely present: KServe
// reports a graph Ready as soon as the condition exists). UpToDate needs the
// rollout finished, as `kubectl rollout status` reads it, and the pod template
// to be the one built for the current graph (desiredHash; "" skips that check).
func workloadOf(d *appsv1.Deployment, desiredHash string) machine.Workload {
	if d == nil {
		return machine.Workload{}
	}
	w := machine.Workload{Exists: true, Available: d.Status.AvailableReplicas, Desired: desiredReplicas(d)}
	if c := deploymentCondition(d, appsv1.DeploymentAvailable); c != nil {
		w.Serving = c.Status == corev1.ConditionTrue
		if !w.Serving {
			w.Reason, w.Message = c.Reason, c.Message
		}
	}
	current := desiredHash == "" || d.Spec.Template.Annotations[graph.TemplateHashAnnotation] == desiredHash
	w.UpToDate = current && rolledOut(d)
	if c := deploymentCondition(d, appsv1.DeploymentProgressing); c != nil && c.Status == corev1.ConditionFalse && c.Reason == "ProgressDeadlineExceeded" {
		w.Failed, w.Reason, w.Message = true, c.Reason, c.Message
	}
	if c := deploymentCondition(d, appsv1.DeploymentReplicaFailure); c != nil && c.Status == corev1.ConditionTrue {
		w.Failed, w.Reason, w.Message = true, orDefault(c.Reason, "ReplicaFailure"), c.Message
	}
	if !w.Serving && w.Message == "" {
		w.Message = fmt.Sprintf("%d of %d replicas available", w.Available, w.Desired)
	}
	return w
}

// rolledOut reports whether every replica runs the Deployment's latest spec and
// is available.
func rolledOut(d *appsv1.Deployment) bool {
	s := d.Status
	switch {
	case s.ObservedGeneration < d.Generation:
		return false
	case s.UpdatedReplicas < desiredReplicas(d):
		return false
	case s.Replicas > s.UpdatedReplicas:
		return false
	case s.AvailableReplicas < s.UpdatedReplicas:
		return false
	}
	return true
}

func desiredReplicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

func deploymentCondition(d *appsv1.Deployment, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range d.Status.Conditions {
		if d.Status.Conditions[i].Type == t {
			return &d.Status.Conditions[i]
		}
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
