package inferenceservice

import (
	"github.com/fsmserve/fsmserve/config"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/machines/workload"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// observation distils the world and the steps' outcomes into what the
// machine decides on. It is pure and runs again after every step.
func observation(r *run) machine.Observation {
	isvc, w := r.Object, r.World
	o := machine.Observation{
		Deleting:       r.Deleting,
		StopRequested:  isvc.IsStopped(),
		SpecChanged:    r.SpecChanged,
		Mode:           string(w.mode),
		ModeSupported:  w.mode == config.Standard,
		Problem:        w.problem,
		Predictor:      workload.Of(w.serving.Deployment, true),
		DeploymentName: isvc.PredictorDeploymentName(),
		UninjectedPods: uninjectedPods(w.pods),
		PodTrouble:     workload.PodTroubleOf(w.pods),
	}
	for _, activity := range []string{machine.ActivityEnsurePredictor, machine.ActivityRepairPods} {
		out, ok := r.Outcome(activity)
		if !ok {
			continue
		}
		if o.Problem.Kind == machine.NoProblem {
			o.Problem = problemOf(out)
		}
		o.PredictorApplied = o.PredictorApplied || out.Succeeded()
	}
	return o
}

// problemOf reads a step's outcome as the machine's problem: a child someone
// else controls, or a child the API server refused.
func problemOf(out outcome.Outcome) machine.Problem {
	switch {
	case out.Status == outcome.Waiting && out.Reason == apply.ReasonChildNotOwned:
		return machine.Problem{Kind: machine.OwnershipProblem, Reason: out.Reason, Message: out.Message}
	case out.Status == outcome.Waiting && out.Reason == apply.ReasonRefused:
		return machine.Problem{Kind: machine.RefusalProblem, Reason: out.Reason, Message: out.Message}
	case out.Status == outcome.Failed:
		return machine.Problem{Kind: machine.SpecProblem, Reason: out.Reason, Message: out.Message}
	}
	return machine.Problem{}
}
