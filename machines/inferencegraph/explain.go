package inferencegraph

import "fmt"

// Explain gives the reason and message recorded in status.lifecycle for being
// in state s. Problem states take their reason and message from the
// observation, so the message names the InferenceService, field or key at
// fault and says what to do.
func Explain(s State, o Observation) (string, string) {
	w, name := o.Router, o.DeploymentName
	switch s {
	case Pending:
		return ReasonPending, "accepted; waiting for the controller to act"
	case Recovering:
		return ReasonRecovering, "the stored lifecycle state was not recognised; re-deriving it from what is observed"
	case ResolvingSteps:
		return ReasonResolving, "resolving every serviceName step to the URL of its InferenceService"
	case WaitingForInferenceService, InvalidSpec, ConfigInvalid, ChildConflict, Refused:
		return o.Problem.Reason, o.Problem.Message
	case DeployingRouter:
		return ReasonDeploying, fmt.Sprintf("waiting for router Deployment %s to become available%s", name, replicaCounts(w))
	case RollingOut:
		return ReasonRollingOut, fmt.Sprintf("rolling out a new router version in Deployment %s while the previous version serves%s", name, replicaCounts(w))
	case Ready:
		return ReasonReady, fmt.Sprintf("router Deployment %s is available (%d/%d replicas) and runs the current graph", name, w.Available, w.Desired)
	case Degraded:
		return explainDegraded(o)
	case Failed:
		return w.Reason, fmt.Sprintf("rollout of router Deployment %s failed: %s; check the router image (key router of inferenceservice-config) and the pods' events; it retries on the next change", name, w.Message)
	case Stopped:
		return ReasonStopped, "stopped by annotation serving.kserve.io/stop; remove it or set it to \"false\" to resume"
	case UnsupportedMode:
		return ReasonModeUnsupported, fmt.Sprintf("deployment mode %q is not available for InferenceGraphs in fsmserve yet; recreate the InferenceGraph with annotation serving.kserve.io/deploymentMode: Standard", o.Mode)
	case Deleting:
		return ReasonDeleting, "the InferenceGraph is being deleted"
	}
	return string(s), ""
}

// explainDegraded names what was lost: an InferenceService a step calls, or
// the router's own availability.
func explainDegraded(o Observation) (string, string) {
	if o.Problem.Kind == ServiceProblem {
		return o.Problem.Reason, o.Problem.Message + "; the router keeps serving the last resolved graph, so steps calling it fail until it is back"
	}
	w := o.Router
	reason := w.Reason
	if reason == "" {
		reason = ReasonAvailabilityLost
	}
	return reason, fmt.Sprintf("router Deployment %s lost availability (%d/%d replicas available): %s", o.DeploymentName, w.Available, w.Desired, w.Message)
}

// replicaCounts says how many replicas are available, once the Deployment
// exists and reports any.
func replicaCounts(w Workload) string {
	if !w.Exists || w.Desired == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d/%d replicas available)", w.Available, w.Desired)
}
