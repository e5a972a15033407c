package inferenceservice

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
)

// reasonModelLoadFailed is KServe's reason when the storage initializer or the
// model server fails to load the model.
const reasonModelLoadFailed = "ModelLoadFailed"

// setModelStatus writes KServe's modelStatus: resolution failures as
// InvalidSpec, otherwise the state of the newest predictor pod's storage
// initializer and server, and the number of serving copies.
// A failure that persists keeps the time it was first seen, so a
// reconcile that finds it unchanged writes nothing.
func setModelStatus(st *v1beta1.InferenceServiceStatus, in statusInput) {
	state, obs := in.State, in.Obs
	switch {
	case state == machine.Stopped:
		st.ModelStatus = v1beta1.ModelStatus{}
		return
	case obs.Problem.Kind == machine.RuntimeProblem || obs.Problem.Kind == machine.SpecProblem:
		st.ModelStatus.TransitionStatus = v1beta1.InvalidSpec
		st.ModelStatus.ModelRevisionStates = &v1beta1.ModelRevisionStates{ActiveModelState: activeState(st), TargetModelState: v1beta1.FailedToLoad}
		st.ModelStatus.LastFailureInfo = stamped(st.ModelStatus.LastFailureInfo,
			&v1beta1.FailureInfo{Reason: failureReason(obs.Problem.Reason), Message: obs.Problem.Message}, in.Now)
		return
	}
	target, failure := podModelState(newestPod(in.Pods))
	if state == machine.Ready && target != v1beta1.FailedToLoad {
		target = v1beta1.Loaded
	}
	ms := &st.ModelStatus
	ms.ModelRevisionStates = &v1beta1.ModelRevisionStates{ActiveModelState: activeState(st), TargetModelState: target}
	switch target {
	case v1beta1.Loaded:
		ms.TransitionStatus = v1beta1.UpToDate
		ms.ModelRevisionStates.ActiveModelState = v1beta1.Loaded
	case v1beta1.FailedToLoad:
		ms.TransitionStatus = v1beta1.BlockedByFailedLoad
	default:
		ms.TransitionStatus = v1beta1.InProgress
	}
	if failure != nil {
		ms.LastFailureInfo = stamped(ms.LastFailureInfo, failure, in.Now)
	}
	ms.ModelCopies = &v1beta1.ModelCopies{TotalCopies: readyPods(in.Pods)}
}

// stamped gives next the time of prev when it is the same failure, else now.
func stamped(prev, next *v1beta1.FailureInfo, now metav1.Time) *v1beta1.FailureInfo {
	next.Time = ptrTime(now)
	if prev != nil && prev.Time != nil && prev.Reason == next.Reason && prev.Message == next.Message &&
		prev.ExitCode == next.ExitCode && prev.Location == next.Location {
		next.Time = prev.Time
	}
	return next
}

func activeState(st *v1beta1.InferenceServiceStatus) v1beta1.ModelState {
	if s := st.ModelStatus.ModelRevisionStates; s != nil && s.ActiveModelState != "" {
		return s.ActiveModelState
	}
	return v1beta1.Pending
}

// podModelState reads the model's state from a pod: the storage initializer
// loading or failing, or the server crashing.
func podModelState(pod *corev1.Pod) (v1beta1.ModelState, *v1beta1.FailureInfo) {
	if pod == nil {
		return v1beta1.Pending, nil
	}
	for _, cs := range pod.Status.InitContainerStatuses {
		if cs.Name != v1beta1.StorageInitializerContainerName {
			continue
		}
		if f := failedContainer(cs); f != nil {
			return v1beta1.FailedToLoad, f
		}
		if cs.State.Running != nil {
			return v1beta1.Loading, nil
		}
	}
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == v1beta1.PredictorContainerName {
			if f := failedContainer(cs); f != nil {
				return v1beta1.FailedToLoad, f
			}
		}
	}
	return v1beta1.Pending, nil
}

func failedContainer(cs corev1.ContainerStatus) *v1beta1.FailureInfo {
	term := cs.State.Terminated
	if w := cs.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" {
		term = cs.LastTerminationState.Terminated
	}
	if term == nil || (term.Reason != "Error" && cs.State.Waiting == nil) {
		return nil
	}
	return &v1beta1.FailureInfo{Reason: reasonModelLoadFailed, Message: term.Message, ExitCode: term.ExitCode}
}

func newestPod(pods []corev1.Pod) *corev1.Pod {
	if len(pods) == 0 {
		return nil
	}
	sorted := append([]corev1.Pod(nil), pods...)
	sort.Slice(sorted, func(i, j int) bool {
		ti, tj := sorted[i].CreationTimestamp, sorted[j].CreationTimestamp
		if !ti.Equal(&tj) {
			return tj.Before(&ti)
		}
		return sorted[i].Name < sorted[j].Name
	})
	return &sorted[0]
}

func readyPods(pods []corev1.Pod) int {
	n := 0
	for _, p := range pods {
		if p.Status.Phase != corev1.PodRunning {
			continue
		}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				n++
			}
		}
	}
	return n
}

func ptrTime(t metav1.Time) *metav1.Time { return &t }

// failureReason maps a problem reason onto KServe's closed set of failure
// reasons; anything else about the spec is InvalidPredictorSpec.
func failureReason(reason string) v1beta1.FailureReason {
	switch reason {
	case "RuntimeNotRecognized", "RuntimeDisabled", "NoSupportingRuntime", "InvalidPredictorSpec", "ModelLoadFailed", "RuntimeUnhealthy":
		return v1beta1.FailureReason(reason)
	}
	return "InvalidPredictorSpec"
}
