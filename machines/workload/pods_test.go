package workload

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func podAt(name string, age time.Duration, status corev1.PodStatus) corev1.Pod {
	return corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(time.Unix(10000, 0).Add(-age))}, Status: status}
}

func waiting(name, reason, msg string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}
}

func TestPodTroubleOf(t *testing.T) {
	unsched := corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse,
		Reason: corev1.PodReasonUnschedulable, Message: "0/4 nodes are available: 4 Insufficient cpu."}}}
	pull := corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{
		waiting("kserve-container", "ImagePullBackOff", `Back-off pulling image "sklearn:nope"`)}}
	crash := corev1.PodStatus{Phase: corev1.PodRunning, InitContainerStatuses: []corev1.ContainerStatus{{Name: "storage-initializer",
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", Message: "bucket not found"}}}}}
	creating := corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{waiting("kserve-container", "ContainerCreating", "")}}
	cases := []struct {
		name   string
		pods   []corev1.Pod
		reason string
		msg    string
	}{
		{"no pods", nil, "", ""},
		{"still creating is not trouble", []corev1.Pod{podAt("a", 0, creating)}, "", ""},
		{"the scheduler's words", []corev1.Pod{podAt("a", 0, unsched)}, "Unschedulable", "0/4 nodes are available: 4 Insufficient cpu."},
		{"the kubelet's words", []corev1.Pod{podAt("a", 0, pull)}, "ImagePullBackOff", `Back-off pulling image "sklearn:nope"`},
		{"a crash loop names the exit code", []corev1.Pod{podAt("a", 0, crash)}, "CrashLoopBackOff", "container storage-initializer exited with code 1 (Error): bucket not found"},
		{"the newest pod first", []corev1.Pod{podAt("old", time.Hour, pull), podAt("new", 0, unsched)}, "Unschedulable", "0/4 nodes are available: 4 Insufficient cpu."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := PodTroubleOf(c.pods)
			if got.Reason != c.reason || got.Message != c.msg {
				t.Errorf("got %+v, want %s: %s", got, c.reason, c.msg)
			}
		})
	}
	if d := (PodTrouble{Pod: "p", Reason: "Unschedulable", Message: "full"}).Describe(); d != "pod p cannot be scheduled (Unschedulable): full" {
		t.Errorf("Describe = %q", d)
	}
}
