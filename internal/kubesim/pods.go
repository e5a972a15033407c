package kubesim

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PodReady: the pod is scheduled, its containers started and passed
// their readiness probes.
func PodReady(p *corev1.Pod, now metav1.Time) {
	p.Status.Phase = corev1.PodRunning
	if p.Status.StartTime == nil {
		p.Status.StartTime = &now
	}
	for _, t := range []corev1.PodConditionType{corev1.PodScheduled, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady} {
		setPodCondition(p, t, now)
	}
	started := true
	statuses := make([]corev1.ContainerStatus, 0, len(p.Spec.Containers))
	for _, c := range p.Spec.Containers {
		statuses = append(statuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, ImageID: c.Image, Ready: true, Started: &started,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
		})
	}
	p.Status.ContainerStatuses = statuses
}

func setPodCondition(p *corev1.Pod, t corev1.PodConditionType, now metav1.Time) {
	for i, c := range p.Status.Conditions {
		if c.Type == t {
			if c.Status != corev1.ConditionTrue {
				p.Status.Conditions[i] = corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: now}
			}
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: now})
}

// PodUnschedulable: the scheduler found no node for the pod and said why.
func PodUnschedulable(p *corev1.Pod, message string, now metav1.Time) {
	p.Status.Phase = corev1.PodPending
	setPodConditionTo(p, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionFalse,
		Reason: corev1.PodReasonUnschedulable, Message: message, LastTransitionTime: now})
}

// PodContainersWaiting: the pod is scheduled, and the kubelet cannot start
// its containers (an image it cannot pull, a crash loop...), as reason and
// message say.
func PodContainersWaiting(p *corev1.Pod, reason, message string, now metav1.Time) {
	p.Status.Phase = corev1.PodPending
	if p.Status.StartTime == nil {
		p.Status.StartTime = &now
	}
	setPodCondition(p, corev1.PodScheduled, now)
	statuses := make([]corev1.ContainerStatus, 0, len(p.Spec.Containers))
	for _, c := range p.Spec.Containers {
		statuses = append(statuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image,
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}})
	}
	p.Status.ContainerStatuses = statuses
}

func setPodConditionTo(p *corev1.Pod, next corev1.PodCondition) {
	for i, c := range p.Status.Conditions {
		if c.Type == next.Type {
			if c.Status == next.Status {
				next.LastTransitionTime = c.LastTransitionTime
			}
			p.Status.Conditions[i] = next
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, next)
}
