package localmodel

import (
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// PodWaiting says why a download Job's pod does not run yet, in the words
// of whoever is holding it back (the scheduler, the kubelet), or "" when it
// runs, has finished, or simply has not been looked at yet. Without it a Job
// whose claim never binds or whose image never pulls waits in silence.
func PodWaiting(pods []corev1.Pod) string {
	for i := range pods {
		if why := podWaiting(&pods[i]); why != "" {
			return fmt.Sprintf("pod %s: %s", pods[i].Name, why)
		}
	}
	return ""
}

func podWaiting(p *corev1.Pod) string {
	if p.DeletionTimestamp != nil || p.Status.Phase != corev1.PodPending {
		return ""
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return fmt.Sprintf("not scheduled (%s): %s", c.Reason, c.Message)
		}
	}
	statuses := append(append([]corev1.ContainerStatus(nil), p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...)
	for _, s := range statuses {
		if w := s.State.Waiting; w != nil && w.Reason != "" && w.Reason != "ContainerCreating" && w.Reason != "PodInitializing" {
			return fmt.Sprintf("container %s is waiting (%s): %s", s.Name, w.Reason, w.Message)
		}
	}
	return ""
}

// PodsOfJob picks the pods the Job controller made for j.
func PodsOfJob(j *batchv1.Job, pods []corev1.Pod) []corev1.Pod {
	var out []corev1.Pod
	for _, p := range pods {
		if p.Labels[batchv1.JobNameLabel] == j.Name {
			out = append(out, p)
		}
	}
	return out
}
