package inferencegraph

import "github.com/fsmserve/fsmserve/machines/engine"

// Define declares the transitions. Deletion, stop, spec changes and problems
// are declared once on Active; states that must not react to them say so with
// Ignore. A referenced InferenceService going away sends a graph that never
// served to WaitingForInferenceService (declared on Active) and a graph that
// served to Degraded (declared on Ready and RollingOut).
func Define(b *engine.Builder[State, Trigger, Observation]) {
	b.Configure(Active).
		Permit(DeletionRequested, Deleting).
		Permit(StopRequested, Stopped).
		Permit(SpecChanged, ResolvingSteps).
		Permit(InferenceServiceUnavailable, WaitingForInferenceService).
		Permit(SpecRejected, InvalidSpec).
		Permit(ConfigRejected, ConfigInvalid).
		Permit(ChildNotOwned, ChildConflict).
		Permit(ChildRefused, Refused)
	for _, s := range []State{Pending, Recovering} {
		b.Configure(s).SubstateOf(Active).
			Permit(Admitted, ResolvingSteps).
			Permit(ModeRejected, UnsupportedMode)
	}
	for _, s := range []State{ResolvingSteps, WaitingForInferenceService, InvalidSpec, ConfigInvalid, ChildConflict, Refused} {
		b.Configure(s).SubstateOf(Active).
			Permit(StepsResolved, DeployingRouter, nothingServing).
			Permit(StepsResolved, RollingOut, routerServing)
	}
	b.Configure(DeployingRouter).SubstateOf(Active).
		Permit(RolloutSucceeded, Ready).
		Permit(RolloutFailed, Failed)
	b.Configure(RollingOut).SubstateOf(Active).
		Permit(RolloutSucceeded, Ready).
		Permit(RolloutFailed, Failed).
		Permit(AvailabilityLost, Degraded).
		Permit(InferenceServiceUnavailable, Degraded)
	b.Configure(Ready).SubstateOf(Active).
		Permit(RolloutStarted, RollingOut).
		Permit(AvailabilityLost, Degraded).
		Permit(RolloutFailed, Failed).
		Permit(InferenceServiceUnavailable, Degraded)
	b.Configure(Degraded).SubstateOf(Active).
		Permit(AvailabilityRestored, Ready).
		Permit(RolloutStarted, RollingOut).
		Permit(RolloutFailed, Failed).
		Ignore(InferenceServiceUnavailable)
	b.Configure(Failed).SubstateOf(Active).
		Permit(Recovered, Ready).
		Permit(RolloutStarted, DeployingRouter, nothingServing).
		Permit(RolloutStarted, RollingOut, routerServing)
	parked(b.Configure(Stopped).SubstateOf(Active)).
		Permit(ResumeRequested, Pending)
	parked(b.Configure(UnsupportedMode).SubstateOf(Active)).
		Permit(Admitted, ResolvingSteps)
	b.Configure(Deleting)
}

// routerServing holds when an earlier router still serves, so the new one
// rolls out beside it.
func routerServing(o Observation) bool {
	return o.Router.Serving
}

// nothingServing holds when no router serves yet.
func nothingServing(o Observation) bool {
	return !o.Router.Serving
}

// parked declares a state that runs nothing of the spec (stopped, or in a
// mode fsmserve does not run): what the spec, its runtime, the
// configuration or a child say does not move it; only deletion, the stop
// annotation and its own way out do.
func parked(s *engine.StateBuilder[State, Trigger, Observation]) *engine.StateBuilder[State, Trigger, Observation] {
	return s.Ignore(SpecChanged).Ignore(InferenceServiceUnavailable).Ignore(SpecRejected).Ignore(ConfigRejected).Ignore(ChildNotOwned).Ignore(ChildRefused)
}
