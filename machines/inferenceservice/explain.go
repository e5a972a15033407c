package inferenceservice

import (
	"fmt"
	"strings"

	"github.com/fsmserve/fsmserve/machines/workload"
)

// Explain gives the reason and message recorded in status.lifecycle for being
// in state s. Failure states take their reason from the observation, so the
// message says exactly what is wrong and what to do about it.
func Explain(s State, o Observation) (string, string) {
	w, name := o.Predictor, o.DeploymentName
	switch s {
	case Pending:
		return ReasonPending, "accepted; waiting for the controller to act"
	case Recovering:
		return ReasonRecovering, "the stored lifecycle state was not recognised; re-deriving it from what is observed"
	case Resolving:
		return ReasonResolving, "choosing the serving runtime and building the predictor"
	case RuntimeUnavailable, InvalidSpec, ConfigInvalid, ChildConflict, Refused:
		return o.Problem.Reason, o.Problem.Message
	case Deploying:
		return withTrouble(ReasonDeploying, fmt.Sprintf("waiting for Deployment %s to become available%s", name, replicaCounts(w)), o.PodTrouble)
	case RollingOut:
		return withTrouble(ReasonRollingOut, fmt.Sprintf("rolling out a new version of Deployment %s while the previous version serves%s", name, replicaCounts(w)), o.PodTrouble)
	case Ready:
		return ReasonReady, fmt.Sprintf("Deployment %s is available (%d/%d replicas)", name, w.Available, w.Desired)
	case Degraded:
		return orDefault(w.Reason, ReasonAvailabilityLost), fmt.Sprintf("Deployment %s lost availability (%d/%d replicas available): %s", name, w.Available, w.Desired, w.Message)
	case Failed:
		return w.Reason, fmt.Sprintf("rollout of Deployment %s failed: %s; fix the predictor spec or the runtime (see the pods' events), and it retries on the next change", name, w.Message)
	case Repairing:
		return ReasonPodMutationMissing, fmt.Sprintf("pods %s were created while the pod mutator was unavailable and lack the storage initializer or agent it injects; fsmserve deletes them so their ReplicaSet recreates them through the mutator (check that the webhook serves if this persists)", strings.Join(o.UninjectedPods, ", "))
	case Stopped:
		return ReasonStopped, "stopped by annotation serving.kserve.io/stop; remove it or set it to \"false\" to resume"
	case UnsupportedMode:
		return ReasonModeUnsupported, fmt.Sprintf("deployment mode %q is not available in fsmserve yet; recreate the InferenceService with annotation serving.kserve.io/deploymentMode: Standard", o.Mode)
	case Deleting:
		return ReasonDeleting, "the InferenceService is being deleted"
	}
	return string(s), ""
}

// withTrouble names what keeps the pods from running, when something does:
// its reason becomes the state's, so `kubectl get` shows Unschedulable or
// ImagePullBackOff rather than Deploying.
func withTrouble(reason, message string, t workload.PodTrouble) (string, string) {
	if t.Reason == "" {
		return reason, message
	}
	return t.Reason, message + "; " + t.Describe()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// replicaCounts says how many replicas are available, once the Deployment
// exists and reports any.
func replicaCounts(w Workload) string {
	if !w.Exists || w.Desired == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d/%d replicas available)", w.Available, w.Desired)
}
