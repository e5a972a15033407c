package inferencegraph

import (
	appsv1 "k8s.io/api/apps/v1"

	"github.com/fsmserve/fsmserve/config"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/machines/workload"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/outcome"
	"github.com/fsmserve/fsmserve/steps/serving"
)

// observation distils the world and the steps' outcomes into what the
// machine decides on. It is pure and runs again after every step.
func observation(r *run) machine.Observation {
	ig, w := r.Object, r.World
	o := machine.Observation{
		Deleting:       r.Deleting,
		StopRequested:  isStopped(ig),
		SpecChanged:    r.SpecChanged,
		Mode:           string(w.mode),
		ModeSupported:  w.mode == config.Standard,
		Problem:        w.problem,
		Router:         workloadOf(w.serving.Deployment, w.desiredHash()),
		DeploymentName: ig.Name,
	}
	if out, ok := r.Outcome(machine.ActivityEnsureRouter); ok {
		if o.Problem.Kind == machine.NoProblem {
			o.Problem = problemOf(out)
		}
		o.RouterApplied = out.Succeeded()
	}
	return o
}

// problemOf reads a step's outcome as the machine's problem.
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

// desiredHash is the template hash of the router that should run, "" when it
// cannot be built (then only the rollout itself says whether it is current).
func (w *world) desiredHash() string {
	if w.desired == nil {
		return ""
	}
	return w.desired.TemplateHash
}

// workloadOf reads the router Deployment; it is up to date only when its pod
// template is the one built for the current graph (desiredHash; "" skips
// that check).
func workloadOf(d *appsv1.Deployment, desiredHash string) machine.Workload {
	current := d != nil && (desiredHash == "" || d.Spec.Template.Annotations[serving.TemplateHashAnnotation] == desiredHash)
	return workload.Of(d, current)
}
