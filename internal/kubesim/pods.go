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
