package inferenceservice

import "github.com/fsmserve/fsmserve/machines/engine"

// Define declares the transitions. Deletion, stop, spec changes and the three
// kinds of problem are declared once on Active; states that must not react to
// them say so with Ignore.
func Define(b *engine.Builder[State, Trigger, Observation]) {
	b.Configure(Active).
		Permit(DeletionRequested, Deleting).
		Permit(StopRequested, Stopped).
		Permit(SpecChanged, Resolving).
		Permit(RuntimeMissing, RuntimeUnavailable).
		Permit(SpecRejected, InvalidSpec).
		Permit(ConfigRejected, ConfigInvalid).
		Permit(ChildNotOwned, ChildConflict).
		Permit(ChildRefused, Refused)
	for _, s := range []State{Pending, Recovering} {
		b.Configure(s).SubstateOf(Active).
			Permit(Admitted, Resolving).
			Permit(ModeRejected, UnsupportedMode)
	}
	for _, s := range []State{Resolving, RuntimeUnavailable, InvalidSpec, ConfigInvalid, ChildConflict, Refused} {
		b.Configure(s).SubstateOf(Active).
			Permit(RuntimeResolved, Deploying, nothingServing).
			Permit(RuntimeResolved, RollingOut, previousServing)
	}
	b.Configure(Deploying).SubstateOf(Active).
		Permit(RolloutSucceeded, Ready).
		Permit(RolloutFailed, Failed)
	b.Configure(RollingOut).SubstateOf(Active).
		Permit(RolloutSucceeded, Ready).
		Permit(RolloutFailed, Failed).
		Permit(AvailabilityLost, Degraded)
	b.Configure(Ready).SubstateOf(Active).
		Permit(RolloutStarted, RollingOut).
		Permit(AvailabilityLost, Degraded).
		Permit(RolloutFailed, Failed)
	b.Configure(Degraded).SubstateOf(Active).
		Permit(AvailabilityRestored, Ready).
		Permit(RolloutFailed, Failed)
	b.Configure(Failed).SubstateOf(Active).
		Permit(Recovered, Ready).
		Permit(RolloutStarted, Deploying, nothingServing).
		Permit(RolloutStarted, RollingOut, previousServing)
	for _, s := range []State{Deploying, RollingOut, Ready, Degraded, Failed} {
		b.Configure(s).Permit(InjectionMissing, Repairing)
	}
	b.Configure(Repairing).SubstateOf(Active).
		Permit(InjectionRestored, Ready, rolledOut).
		Permit(InjectionRestored, RollingOut, servingButRollingOut).
		Permit(InjectionRestored, Deploying, nothingServing)
	parked(b.Configure(Stopped).SubstateOf(Active)).
		Permit(ResumeRequested, Pending)
	parked(b.Configure(UnsupportedMode).SubstateOf(Active)).
		Permit(Admitted, Resolving)
	b.Configure(Deleting)
}

// previousServing holds when an earlier version still serves, so the new one
// rolls out beside it.
func previousServing(o Observation) bool {
	return o.Predictor.Serving
}

// nothingServing holds when no version serves yet.
func nothingServing(o Observation) bool {
	return !o.Predictor.Serving
}

// rolledOut holds when the current version is fully rolled out and serving.
func rolledOut(o Observation) bool {
	return o.Predictor.Complete()
}

// servingButRollingOut holds when a version serves but the current one is not
// fully rolled out.
func servingButRollingOut(o Observation) bool {
	w := o.Predictor
	return w.Serving && !w.Complete()
}

// parked declares a state that runs nothing of the spec (stopped, or in a
// mode fsmserve does not run): what the spec, its runtime, the
// configuration or a child say does not move it; only deletion, the stop
// annotation and its own way out do.
func parked(s *engine.StateBuilder[State, Trigger, Observation]) *engine.StateBuilder[State, Trigger, Observation] {
	return s.Ignore(SpecChanged).Ignore(RuntimeMissing).Ignore(SpecRejected).Ignore(ConfigRejected).Ignore(ChildNotOwned).Ignore(ChildRefused)
}
