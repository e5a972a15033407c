package inferencegraph

import (
	"context"

	"go.opentelemetry.io/otel/attribute"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/outcome"
	"github.com/fsmserve/fsmserve/steps/serving"
)

// ReasonRouterRejected is the reason when the API server refuses the router's
// children (for example a graph name that is not a valid container name).
const ReasonRouterRejected = "RouterRejected"

// steps maps each activity of the machine to its step. States waiting for
// an InferenceService or a fix run none: a router that already runs keeps
// serving the last graph.
var steps = map[string]lifecycle.Step[*v1alpha1.InferenceGraph, *world]{
	machine.ActivityEnsureRouter:    ensureRouter,
	machine.ActivityRecheckChildren: lifecycle.Recheck[*v1alpha1.InferenceGraph, *world],
	machine.ActivityDeleteRouter:    deleteRouter,
	machine.ActivityDeleteChildren:  deleteChildren,
}

// ensureRouter applies the router's Service, Deployment and autoscaler.
func ensureRouter(ctx context.Context, r *run) outcome.Outcome {
	w := r.World
	if w.desired == nil {
		return outcome.OK(false)
	}
	end := r.Spans.Start("Step EnsureRouter", attribute.String("k8s.deployment.name", w.desired.Deployment.Name))
	changed, err := applyRouter(ctx, r)
	end(err, attribute.Bool("fsmserve.changed", changed))
	return apply.Outcome(err, changed, ReasonRouterRejected, "the router", "fix the InferenceGraph spec")
}

func applyRouter(ctx context.Context, r *run) (bool, error) {
	w, d := r.World, r.World.desired
	serving.StampTemplate(d.Deployment, w.serving.Deployment, r.TraceParent)
	now, changed, err := serving.Ensure(ctx, w.applier, d.Children, w.serving)
	w.serving = now
	return changed, err
}

// deleteRouter removes the router of a stopped graph.
func deleteRouter(ctx context.Context, r *run) outcome.Outcome {
	return deleteOwn(ctx, r, "Step DeleteRouter")
}

// deleteChildren removes the router before the graph goes; the skeleton
// removes the finalizer once this succeeded and was published.
func deleteChildren(ctx context.Context, r *run) outcome.Outcome {
	return deleteOwn(ctx, r, "Step DeleteChildren")
}

// deleteOwn deletes the router's children this graph controls (the world
// holds no other).
func deleteOwn(ctx context.Context, r *run, span string) outcome.Outcome {
	w := r.World
	children := w.serving.Present()
	if len(children) == 0 {
		return outcome.OK(false)
	}
	end := r.Spans.Start(span)
	out := w.applier.DeleteAll(ctx, children...)
	end(out.Err)
	w.serving = serving.Children{}
	return out
}
