package workload

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
)

// PodTrouble is why a workload's pods do not run, in the words of the
// scheduler or the kubelet: a Deployment only says "0/1 available", and
// a user must not have to look at the pods to learn the cluster is full or
// the image does not exist. Empty when no pod is in trouble.
type PodTrouble struct {
	// Pod names the pod.
	Pod string
	// Reason is the scheduler's or kubelet's reason: Unschedulable,
	// ErrImagePull, ImagePullBackOff, CrashLoopBackOff...
	Reason string
	// Message is their message (with the exit code of a crash).
	Message string
}

// Describe says it in one phrase, for a state's message.
func (t PodTrouble) Describe() string {
	if t.Reason == "" {
		return ""
	}
	what := "cannot start"
	if t.Reason == corev1.PodReasonUnschedulable {
		what = "cannot be scheduled"
	}
	return fmt.Sprintf("pod %s %s (%s): %s", t.Pod, what, t.Reason, t.Message)
}

// troubledWaiting are the container waiting reasons that mean the pod will
// not run without a change (ContainerCreating and PodInitializing are only
// slow).
var troubledWaiting = map[string]bool{
	"ErrImagePull": true, "ImagePullBackOff": true, "InvalidImageName": true, "CrashLoopBackOff": true,
	"CreateContainerConfigError": true, "CreateContainerError": true, "RunContainerError": true,
}

// PodTroubleOf finds the first pod, newest first, that is not running for a
// reason someone must fix.
func PodTroubleOf(pods []corev1.Pod) PodTrouble {
	sorted := append([]corev1.Pod(nil), pods...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return sorted[j].CreationTimestamp.Before(&sorted[i].CreationTimestamp)
	})
	for i := range sorted {
		p := &sorted[i]
		if p.DeletionTimestamp != nil {
			continue
		}
		if t := unschedulable(p); t.Reason != "" {
			return t
		}
		if t := stuckContainer(p); t.Reason != "" {
			return t
		}
	}
	return PodTrouble{}
}

func unschedulable(p *corev1.Pod) PodTrouble {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
			return PodTrouble{Pod: p.Name, Reason: c.Reason, Message: c.Message}
		}
	}
	return PodTrouble{}
}

func stuckContainer(p *corev1.Pod) PodTrouble {
	statuses := append(append([]corev1.ContainerStatus(nil), p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...)
	for _, cs := range statuses {
		w := cs.State.Waiting
		if w == nil || !troubledWaiting[w.Reason] {
			continue
		}
		msg := w.Message
		if last := cs.LastTerminationState.Terminated; last != nil {
			msg = fmt.Sprintf("container %s exited with code %d (%s)%s", cs.Name, last.ExitCode, last.Reason, suffix(last.Message))
		} else if msg == "" {
			msg = "container " + cs.Name
		}
		return PodTrouble{Pod: p.Name, Reason: w.Reason, Message: msg}
	}
	return PodTrouble{}
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}
