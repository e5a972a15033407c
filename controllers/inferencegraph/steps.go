package inferencegraph

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/graph"
	"github.com/fsmserve/fsmserve/steps/outcome"
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
	changed := false
	step := func(desired, observed client.Object) error {
		res, err := w.applier.Apply(ctx, desired, observed)
		changed = changed || res.Changed
		return err
	}
	if err := step(d.Service, w.service); err != nil {
		return changed, err
	}
	w.service = d.Service
	stampTraceContext(d.Deployment, w.deployment, d.TemplateHash, r.TraceParent)
	if err := step(d.Deployment, w.deployment); err != nil {
		return changed, err
	}
	w.deployment = d.Deployment
	if d.HPA != nil {
		err := step(d.HPA, w.hpa)
		if err == nil {
			w.hpa = d.HPA
		}
		return changed, err
	}
	if w.hpa != nil {
		_, err := w.applier.Delete(ctx, w.hpa)
		changed, w.hpa = changed || err == nil, nil
		return changed, err
	}
	return changed, nil
}

// stampTraceContext gives the router's pod template the current episode's
// trace context only when the template itself changes, so the context rides
// along with rollouts that happen anyway and never causes one.
func stampTraceContext(desired, live *appsv1.Deployment, hash, traceParent string) {
	if live != nil && live.Spec.Template.Annotations[graph.TemplateHashAnnotation] == hash {
		if previous, ok := live.Spec.Template.Annotations[graph.TraceParentAnnotation]; ok {
			traceParent = previous
		}
	}
	desired.Spec.Template.Annotations[graph.TraceParentAnnotation] = traceParent
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
	children := apply.Present(w.hpa, w.deployment, w.service)
	if len(children) == 0 {
		return outcome.OK(false)
	}
	end := r.Spans.Start(span)
	out := w.applier.DeleteAll(ctx, children...)
	end(out.Err)
	w.deployment, w.service, w.hpa = nil, nil, nil
	return out
}
