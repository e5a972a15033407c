// Package workload reads a Deployment the one way every fsmserve machine
// decides on it (the InferenceService predictor, the InferenceGraph router,
// and every kind after them that runs a Deployment): is it there, does it
// serve, is the current version rolled out, did it fail and why. It is pure.
package workload

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// Workload is a Deployment distilled into what a machine decides on.
type Workload struct {
	// Exists is true when the Deployment exists.
	Exists bool
	// Serving is true while the Deployment's Available condition is True
	// (at least the minimum replicas are available).
	Serving bool
	// UpToDate is true when the Deployment has observed its latest spec,
	// every replica runs it, and (when asked) its template is the current one:
	// the current version is fully rolled out.
	UpToDate bool
	// Failed is true on ProgressDeadlineExceeded or ReplicaFailure.
	Failed bool
	// Reason and Message explain a failure or a loss of availability.
	Reason  string
	Message string
	// Available and Desired replica counts, for messages.
	Available int32
	Desired   int32
}

// Complete reports whether the current version is rolled out and serving.
func (w Workload) Complete() bool { return w.Exists && w.Serving && w.UpToDate && !w.Failed }

// Of reads a Deployment (nil: absent). Serving follows the Available
// condition (True, not merely present); UpToDate follows the rules of
// `kubectl rollout status`, so a Deployment whose status predates its spec is
// never taken for rolled out, and requires currentTemplate (the caller's
// check that the pod template is the one built for the current spec).
func Of(d *appsv1.Deployment, currentTemplate bool) Workload {
	if d == nil {
		return Workload{}
	}
	w := Workload{Exists: true, Available: d.Status.AvailableReplicas, Desired: DesiredReplicas(d)}
	if c := Condition(d, appsv1.DeploymentAvailable); c != nil {
		w.Serving = c.Status == corev1.ConditionTrue
		if !w.Serving {
			w.Reason, w.Message = c.Reason, c.Message
		}
	}
	w.UpToDate = currentTemplate && RolledOut(d)
	if c := Condition(d, appsv1.DeploymentProgressing); c != nil && c.Status == corev1.ConditionFalse && c.Reason == "ProgressDeadlineExceeded" {
		w.Failed, w.Reason, w.Message = true, c.Reason, c.Message
	}
	if c := Condition(d, appsv1.DeploymentReplicaFailure); c != nil && c.Status == corev1.ConditionTrue {
		w.Failed, w.Reason, w.Message = true, orDefault(c.Reason, "ReplicaFailure"), c.Message
	}
	if !w.Serving && w.Message == "" {
		w.Message = fmt.Sprintf("%d of %d replicas available", w.Available, w.Desired)
	}
	return w
}

// RolledOut reports whether every replica runs the Deployment's latest spec
// and is available.
func RolledOut(d *appsv1.Deployment) bool {
	s := d.Status
	switch {
	case s.ObservedGeneration < d.Generation:
		return false
	case s.UpdatedReplicas < DesiredReplicas(d):
		return false
	case s.Replicas > s.UpdatedReplicas:
		return false
	case s.AvailableReplicas < s.UpdatedReplicas:
		return false
	}
	return true
}

// DesiredReplicas is spec.replicas, 1 when unset (the API default).
func DesiredReplicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// Condition returns the Deployment's condition of type t, or nil.
func Condition(d *appsv1.Deployment, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
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
