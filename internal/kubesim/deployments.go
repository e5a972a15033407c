// Package kubesim plays the controllers a test cluster lacks (Deployment,
// Job, kubelet): it writes the status a real one writes, in a real one's
// order (counts, conditions, their times, the newest ReplicaSet's name), as
// kwok does for nodes and pods, so the checks that read it run for real.
package kubesim

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
)

// Deployment condition reasons, as the Deployment controller writes them.
const (
	reasonMinimumReplicasAvailable   = "MinimumReplicasAvailable"
	reasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
	reasonNewReplicaSetAvailable     = "NewReplicaSetAvailable"
	reasonReplicaSetUpdated          = "ReplicaSetUpdated"
	reasonProgressDeadlineExceeded   = "ProgressDeadlineExceeded"
)

// The status changes below write what the Deployment controller would after
// observing the Deployment's current generation.

// Available: the latest ReplicaSet rolled out and every replica
// is available.
func Available(d *appsv1.Deployment, replicas *int32, now metav1.Time) {
	n := desiredReplicas(d, replicas)
	setCounts(d, n, n, n, n)
	rs := ReplicaSetName(d)
	setCondition(d, appsv1.DeploymentAvailable, corev1.ConditionTrue, reasonMinimumReplicasAvailable,
		"Deployment has minimum availability.", now)
	setCondition(d, appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonNewReplicaSetAvailable,
		fmt.Sprintf("ReplicaSet %q has successfully progressed.", rs), now)
	removeCondition(d, appsv1.DeploymentReplicaFailure)
}

// Progressing: a rolling update of the latest generation is
// under way (one surge replica, not ready) while the old replicas still serve.
func Progressing(d *appsv1.Deployment, replicas *int32, now metav1.Time) {
	n := desiredReplicas(d, replicas)
	setCounts(d, n+1, 1, n, n)
	setCondition(d, appsv1.DeploymentAvailable, corev1.ConditionTrue, reasonMinimumReplicasAvailable,
		"Deployment has minimum availability.", now)
	setCondition(d, appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonReplicaSetUpdated,
		fmt.Sprintf("ReplicaSet %q is progressing.", ReplicaSetName(d)), now)
}

// Unavailable: the latest ReplicaSet exists but none of its
// replicas is available yet; the rollout is still within its deadline.
func Unavailable(d *appsv1.Deployment, replicas *int32, now metav1.Time) {
	n := desiredReplicas(d, replicas)
	setCounts(d, n, n, 0, 0)
	setCondition(d, appsv1.DeploymentAvailable, corev1.ConditionFalse, reasonMinimumReplicasUnavailable,
		"Deployment does not have minimum availability.", now)
	setCondition(d, appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonReplicaSetUpdated,
		fmt.Sprintf("ReplicaSet %q is progressing.", ReplicaSetName(d)), now)
}

// Failed: the rollout gave up (Progressing=False), optionally
// because replicas could not be created (ReplicaFailure=True).
// Failure says how a rollout fails.
type Failure struct {
	// Reason of Progressing=False; ProgressDeadlineExceeded by default.
	Reason string
	// Message of the failing conditions.
	Message string
	// ReplicaFailure, when set, adds ReplicaFailure=True with this reason
	// (e.g. FailedCreate).
	ReplicaFailure string
}

func Failed(d *appsv1.Deployment, f Failure, now metav1.Time) {
	n := desiredReplicas(d, nil)
	setCounts(d, n, n, 0, 0)
	rs := ReplicaSetName(d)
	reason, message := f.Reason, f.Message
	if reason == "" {
		reason = reasonProgressDeadlineExceeded
	}
	if message == "" {
		message = fmt.Sprintf("ReplicaSet %q has timed out progressing.", rs)
	}
	setCondition(d, appsv1.DeploymentAvailable, corev1.ConditionFalse, reasonMinimumReplicasUnavailable,
		"Deployment does not have minimum availability.", now)
	setCondition(d, appsv1.DeploymentProgressing, corev1.ConditionFalse, reason, message, now)
	if f.ReplicaFailure != "" {
		failure := f.Message
		if failure == "" {
			failure = fmt.Sprintf("Failed to create pods of ReplicaSet %q.", rs)
		}
		setCondition(d, appsv1.DeploymentReplicaFailure, corev1.ConditionTrue, f.ReplicaFailure, failure, now)
	} else {
		removeCondition(d, appsv1.DeploymentReplicaFailure)
	}
}

func desiredReplicas(d *appsv1.Deployment, override *int32) int32 {
	switch {
	case override != nil:
		return *override
	case d.Spec.Replicas != nil:
		return *d.Spec.Replicas
	}
	return 1
}

func setCounts(d *appsv1.Deployment, total, updated, ready, available int32) {
	d.Status.ObservedGeneration = d.Generation
	d.Status.Replicas = total
	d.Status.UpdatedReplicas = updated
	d.Status.ReadyReplicas = ready
	d.Status.AvailableReplicas = available
	d.Status.UnavailableReplicas = max(total-available, 0)
}

// setCondition follows the Deployment controller: an unchanged
// condition is left alone, and the transition time moves only when the
// status does.
func setCondition(d *appsv1.Deployment, t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, message string, now metav1.Time) {
	next := appsv1.DeploymentCondition{Type: t, Status: status, Reason: reason, Message: message,
		LastUpdateTime: now, LastTransitionTime: now}
	for i, c := range d.Status.Conditions {
		if c.Type != t {
			continue
		}
		if c.Status == status && c.Reason == reason && c.Message == message {
			return
		}
		if c.Status == status {
			next.LastTransitionTime = c.LastTransitionTime
		}
		d.Status.Conditions[i] = next
		return
	}
	d.Status.Conditions = append(d.Status.Conditions, next)
}

func removeCondition(d *appsv1.Deployment, t appsv1.DeploymentConditionType) {
	kept := d.Status.Conditions[:0]
	for _, c := range d.Status.Conditions {
		if c.Type != t {
			kept = append(kept, c)
		}
	}
	d.Status.Conditions = kept
}

// ReplicaSetName imitates the name of the Deployment's newest ReplicaSet:
// the Deployment's name and a hash of its pod template.
func ReplicaSetName(d *appsv1.Deployment) string {
	h := fnv.New32a()
	template, _ := json.Marshal(d.Spec.Template)
	_, _ = h.Write(template)
	return d.Name + "-" + rand.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// Conditions renders a Deployment's conditions as Type: Status/Reason, for
// tests and messages.
func Conditions(d *appsv1.Deployment) map[string]string {
	out := map[string]string{}
	for _, c := range d.Status.Conditions {
		out[string(c.Type)] = string(c.Status) + "/" + c.Reason
	}
	return out
}
