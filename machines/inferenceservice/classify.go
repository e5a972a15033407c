package inferenceservice

import "github.com/fsmserve/fsmserve/machines/engine"

// Classify maps what the controller observed in state s to the trigger it
// implies. Order matters: deletion beats stop, stop beats everything the spec
// says, and problems beat workload health.
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
	case s == Refused && o.Problem.Kind == NoProblem && !o.PredictorApplied:
		// Nothing is known until the retried apply has run.
		return "", false
	}
	if t, ok := problemTrigger(s, o.Problem); ok {
		return t, true
	}
	if t, ok := injectionTrigger(s, o); ok {
		return t, true
	}
	return workloadTrigger(s, o.Predictor)
}

// injectionTrigger notices predictor pods the pod mutator never saw, and
// their replacement by pods it did.
func injectionTrigger(s State, o Observation) (Trigger, bool) {
	switch s {
	case Repairing:
		return engine.FirstOf(len(o.UninjectedPods) == 0, InjectionRestored, false, "")
	case Deploying, RollingOut, Ready, Degraded, Failed:
		return engine.FirstOf(len(o.UninjectedPods) > 0, InjectionMissing, false, "")
	}
	return "", false
}

// reactsToSpecChange lists the states where a new generation starts a new
// episode. Progressing states pick the new spec up on their own.
func reactsToSpecChange(s State) bool {
	switch s {
	case Ready, Degraded, Failed, RuntimeUnavailable, InvalidSpec, ConfigInvalid, ChildConflict, Refused, Repairing:
		return true
	}
	return false
}

var problemRoute = map[ProblemKind]struct {
	state   State
	trigger Trigger
}{
	RuntimeProblem: {RuntimeUnavailable, RuntimeMissing},
	SpecProblem:    {InvalidSpec, SpecRejected},
	ConfigProblem:  {ConfigInvalid, ConfigRejected},
	// Ownership is checked last in observe: a child is only compared once
	// the predictor could be built at all.
	OwnershipProblem: {ChildConflict, ChildNotOwned},
	RefusalProblem:   {Refused, ChildRefused},
}

func problemTrigger(s State, p Problem) (Trigger, bool) {
	if p.Kind == NoProblem {
		switch s {
		case Resolving, RuntimeUnavailable, InvalidSpec, ConfigInvalid, ChildConflict, Refused:
			return RuntimeResolved, true
		}
		return "", false
	}
	route, known := problemRoute[p.Kind]
	if !known || route.state == s {
		return "", false
	}
	return route.trigger, true
}

func workloadTrigger(s State, w Workload) (Trigger, bool) {
	switch s {
	case Deploying:
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
		return engine.FirstOf(w.Failed, RolloutFailed, w.Complete(), AvailabilityRestored)
	case Failed:
		return engine.FirstOf(w.Complete(), Recovered, !w.Failed, RolloutStarted)
	}
	return "", false
}

// SeeksRuntime reports whether an object in state s ("" for a new one)
// has no runtime yet and is waiting for one: a runtime created, changed
// or enabled may move it, so the controller wakes it on runtime events.
func SeeksRuntime(s State) bool {
	switch s {
	case "", Pending, Resolving, RuntimeUnavailable, InvalidSpec:
		return true
	}
	return false
}
