package localmodel

import (
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func pendingPod(name string, mutate func(*corev1.Pod)) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{batchv1.JobNameLabel: "job-a"}},
		Status: corev1.PodStatus{Phase: corev1.PodPending}}
	mutate(&p)
	return p
}

func TestPodWaitingNamesWhatHoldsThePod(t *testing.T) {
	unschedulable := pendingPod("a-1", func(p *corev1.Pod) {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse,
			Reason: "Unschedulable", Message: "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."}}
	})
	pullBackOff := pendingPod("a-2", func(p *corev1.Pod) {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}}
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "kserve-localmodel-download",
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: "Back-off pulling image"}}}}
	})
	creating := pendingPod("a-3", func(p *corev1.Pod) {
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c",
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}}
	})
	running := pendingPod("a-4", func(p *corev1.Pod) { p.Status.Phase = corev1.PodRunning })
	cases := []struct {
		name string
		pods []corev1.Pod
		want string
	}{
		{"no pod yet", nil, ""},
		{"unschedulable", []corev1.Pod{unschedulable},
			"pod a-1: not scheduled (Unschedulable): 0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."},
		{"image pull", []corev1.Pod{pullBackOff},
			"pod a-2: container kserve-localmodel-download is waiting (ImagePullBackOff): Back-off pulling image"},
		{"ordinary start is not a problem", []corev1.Pod{creating}, ""},
		{"running", []corev1.Pod{running}, ""},
		{"first stuck pod wins", []corev1.Pod{running, pullBackOff}, "pod a-2: container kserve-localmodel-download is waiting (ImagePullBackOff): Back-off pulling image"},
	}
	for _, c := range cases {
		if got := PodWaiting(c.pods); got != c.want {
			t.Errorf("%s: PodWaiting = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPodsOfJobKeepsOnlyThatJobsPods(t *testing.T) {
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "job-a"}}
	mine := pendingPod("a-1", func(*corev1.Pod) {})
	other := pendingPod("b-1", func(p *corev1.Pod) { p.Labels[batchv1.JobNameLabel] = "job-b" })
	got := PodsOfJob(job, []corev1.Pod{other, mine})
	if len(got) != 1 || got[0].Name != "a-1" {
		t.Fatalf("PodsOfJob = %v, want only a-1", got)
	}
}
