package inferencegraph

import "github.com/fsmserve/fsmserve/machines/engine"

// Classify maps what the controller observed in state s to the trigger it
// implies. Order matters: deletion beats stop, stop beats everything the spec
// says, and problems beat router health.
func Classify(s State, o Observation) (Trigger, bool) {
	switch {
	case s == Deleting:
		return "", false
	case o.Deleting:
		return DeletionRequested, true
	case s == Stopped:
		return engine.FirstOf(!o.StopRequested, ResumeRequested, false, "")
	case o.StopRequested:
		return StopRequested, true
	case s == Pending || s == Recovering:
		if !o.ModeSupported {
			return ModeRejected, true
		}
		return Admitted, true
	case s == UnsupportedMode:
		// A mode this version runs (after an upgrade that added it, or a
		// restored status) is admitted like a new object's.
		return engine.FirstOf(o.ModeSupported, Admitted, false, "")
	case o.SpecChanged && reactsToSpecChange(s):
		return SpecChanged, true
	case s == Refused && o.Problem.Kind == NoProblem && !o.RouterApplied:
		// Nothing is known until the retried apply has run.
		return "", false
	}
	if t, ok := problemTrigger(s, o.Problem); ok {
		return t, true
	}
	if o.Problem.Kind != NoProblem {
		// The router cannot be rebuilt until the problem is gone; its health
		// alone must not move the machine past the problem.
		return "", false
	}
	return routerTrigger(s, o.Router)
}

// reactsToSpecChange lists the states where a new generation starts a new
// episode. Progressing states pick the new spec up on their own.
func reactsToSpecChange(s State) bool {
	switch s {
	case Ready, Degraded, Failed, InvalidSpec, ConfigInvalid, ChildConflict, Refused:
		return true
	}
	return false
}

var problemRoute = map[ProblemKind]struct {
	state   State
	trigger Trigger
}{
	ServiceProblem:   {WaitingForInferenceService, InferenceServiceUnavailable},
	SpecProblem:      {InvalidSpec, SpecRejected},
	ConfigProblem:    {ConfigInvalid, ConfigRejected},
	OwnershipProblem: {ChildConflict, ChildNotOwned},
	RefusalProblem:   {Refused, ChildRefused},
}

func problemTrigger(s State, p Problem) (Trigger, bool) {
	if p.Kind == NoProblem {
		switch s {
		case ResolvingSteps, WaitingForInferenceService, InvalidSpec, ConfigInvalid, ChildConflict, Refused:
			return StepsResolved, true
		}
		return "", false
	}
	route, known := problemRoute[p.Kind]
	if !known || route.state == s {
		return "", false
	}
	if p.Kind == ServiceProblem && s == Degraded {
		// Degraded already says which InferenceService went away.
		return "", false
	}
	return route.trigger, true
}

func routerTrigger(s State, w Workload) (Trigger, bool) {
	switch s {
	case DeployingRouter:
		return engine.FirstOf(w.Failed, RolloutFailed, w.Complete(), RolloutSucceeded)
	case RollingOut:
		if !w.Failed && !w.Complete() && !w.Serving {
			return AvailabilityLost, true
		}
		return engine.FirstOf(w.Failed, RolloutFailed, w.Complete(), RolloutSucceeded)
	case Ready:
		if w.Failed {
			return RolloutFailed, true
		}
		return engine.FirstOf(!w.Serving, AvailabilityLost, !w.UpToDate, RolloutStarted)
	case Degraded:
		if w.Failed {
			return RolloutFailed, true
		}
		return engine.FirstOf(w.Complete(), AvailabilityRestored, w.Serving && !w.UpToDate, RolloutStarted)
	case Failed:
		return engine.FirstOf(w.Complete(), Recovered, !w.Failed, RolloutStarted)
	}
	return "", false
}
