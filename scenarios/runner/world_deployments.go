package runner

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

// setDeploymentAvailable: the latest ReplicaSet rolled out and every replica
// is available.
func setDeploymentAvailable(d *appsv1.Deployment, replicas *int32, now metav1.Time) {
	n := desiredReplicas(d, replicas)
	setDeploymentCounts(d, n, n, n, n)
	rs := replicaSetName(d)
	setDeploymentCondition(d, appsv1.DeploymentAvailable, corev1.ConditionTrue, reasonMinimumReplicasAvailable,
		"Deployment has minimum availability.", now)
	setDeploymentCondition(d, appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonNewReplicaSetAvailable,
		fmt.Sprintf("ReplicaSet %q has successfully progressed.", rs), now)
	removeDeploymentCondition(d, appsv1.DeploymentReplicaFailure)
}

// setDeploymentProgressing: a rolling update of the latest generation is
// under way (one surge replica, not ready) while the old replicas still serve.
func setDeploymentProgressing(d *appsv1.Deployment, replicas *int32, now metav1.Time) {
	n := desiredReplicas(d, replicas)
	setDeploymentCounts(d, n+1, 1, n, n)
	setDeploymentCondition(d, appsv1.DeploymentAvailable, corev1.ConditionTrue, reasonMinimumReplicasAvailable,
		"Deployment has minimum availability.", now)
	setDeploymentCondition(d, appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonReplicaSetUpdated,
		fmt.Sprintf("ReplicaSet %q is progressing.", replicaSetName(d)), now)
}

// setDeploymentUnavailable: the latest ReplicaSet exists but none of its
// replicas is available yet; the rollout is still within its deadline.
func setDeploymentUnavailable(d *appsv1.Deployment, replicas *int32, now metav1.Time) {
	n := desiredReplicas(d, replicas)
	setDeploymentCounts(d, n, n, 0, 0)
	setDeploymentCondition(d, appsv1.DeploymentAvailable, corev1.ConditionFalse, reasonMinimumReplicasUnavailable,
		"Deployment does not have minimum availability.", now)
	setDeploymentCondition(d, appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonReplicaSetUpdated,
		fmt.Sprintf("ReplicaSet %q is progressing.", replicaSetName(d)), now)
}

// setDeploymentFailed: the rollout gave up (Progressing=False), optionally
// because replicas could not be created (ReplicaFailure=True).
func setDeploymentFailed(d *appsv1.Deployment, f DeploymentFailure, now metav1.Time) {
	n := desiredReplicas(d, nil)
	setDeploymentCounts(d, n, n, 0, 0)
	rs := replicaSetName(d)
	reason, message := f.Reason, f.Message
	if reason == "" {
		reason = reasonProgressDeadlineExceeded
	}
	if message == "" {
		message = fmt.Sprintf("ReplicaSet %q has timed out progressing.", rs)
	}
	setDeploymentCondition(d, appsv1.DeploymentAvailable, corev1.ConditionFalse, reasonMinimumReplicasUnavailable,
		"Deployment does not have minimum availability.", now)
	setDeploymentCondition(d, appsv1.DeploymentProgressing, corev1.ConditionFalse, reason, message, now)
	if f.ReplicaFailure != "" {
		failure := f.Message
		if failure == "" {
			failure = fmt.Sprintf("Failed to create pods of ReplicaSet %q.", rs)
		}
		setDeploymentCondition(d, appsv1.DeploymentReplicaFailure, corev1.ConditionTrue, f.ReplicaFailure, failure, now)
	} else {
		removeDeploymentCondition(d, appsv1.DeploymentReplicaFailure)
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

func setDeploymentCounts(d *appsv1.Deployment, total, updated, ready, available int32) {
	d.Status.ObservedGeneration = d.Generation
	d.Status.Replicas = total
	d.Status.UpdatedReplicas = updated
	d.Status.ReadyReplicas = ready
	d.Status.AvailableReplicas = available
	d.Status.UnavailableReplicas = max(total-available, 0)
}

// setDeploymentCondition follows the Deployment controller: an unchanged
// condition is left alone, and the transition time moves only when the
// status does.
func setDeploymentCondition(d *appsv1.Deployment, t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, message string, now metav1.Time) {
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

func removeDeploymentCondition(d *appsv1.Deployment, t appsv1.DeploymentConditionType) {
	kept := d.Status.Conditions[:0]
	for _, c := range d.Status.Conditions {
		if c.Type != t {
			kept = append(kept, c)
		}
	}
	d.Status.Conditions = kept
}

// replicaSetName imitates the name of the Deployment's newest ReplicaSet:
// the Deployment's name and a hash of its pod template.
func replicaSetName(d *appsv1.Deployment) string {
	h := fnv.New32a()
	template, _ := json.Marshal(d.Spec.Template)
	_, _ = h.Write(template)
	return d.Name + "-" + rand.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}
