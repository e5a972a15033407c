package inferencegraph

import (
	"context"
	"fmt"
	"reflect"

	"go.opentelemetry.io/otel/attribute"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/graph"
)

// ReasonRouterRejected is the reason when the API server refuses the router's
// children (for example a graph name that is not a valid container name).
const ReasonRouterRejected = "RouterRejected"

// act runs the current state's step. Steps are idempotent; their outcome goes
// back into the observation. States waiting for an InferenceService or a fix
// leave a router that already runs alone: it keeps serving the last graph.
func (sc *scope) act(ctx context.Context, s machine.State, o machine.Observation) machine.Observation {
	switch s {
	case machine.ResolvingSteps:
		o.SpecChanged = false // ResolvingSteps takes the new generation up.
	case machine.DeployingRouter, machine.RollingOut, machine.Ready, machine.Degraded, machine.Failed:
		sc.ensureRouter(ctx, &o)
	case machine.Stopped:
		sc.deleteChildren(ctx, "Step DeleteRouter")
		o.Router = machine.Workload{}
	case machine.Deleting:
		sc.deleteChildren(ctx, "Step DeleteChildren")
		// The finalizer goes after the status write has recorded Deleting and
		// the transition has been published; the Reconcile skeleton does it.
		sc.removeFinalizer = len(sc.errs) == 0
	}
	return o
}

// ensureRouter applies the router's Service, Deployment and autoscaler.
func (sc *scope) ensureRouter(ctx context.Context, o *machine.Observation) {
	if sc.desired == nil {
		return
	}
	end := sc.spans.Start("Step EnsureRouter", attribute.String("k8s.deployment.name", sc.desired.Deployment.Name))
	err := sc.applyRouter(ctx)
	end(err, attribute.Bool("fsmserve.changed", sc.changed))
	switch {
	case err == nil:
		o.Router = workloadOf(sc.deployment, sc.desired.TemplateHash)
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err):
		o.Problem = machine.Problem{Kind: machine.SpecProblem, Reason: ReasonRouterRejected,
			Message: fmt.Sprintf("the API server rejected the router: %v; fix the InferenceGraph spec", err)}
	default:
		sc.errs = append(sc.errs, err)
	}
}

func (sc *scope) applyRouter(ctx context.Context) error {
	d := sc.desired
	if err := sc.apply(ctx, d.Service, rvOf(sc.service)); err != nil {
		return err
	}
	sc.service = d.Service
	stampTraceContext(d.Deployment, sc.deployment, d.TemplateHash, sc.traceParent)
	if err := sc.apply(ctx, d.Deployment, rvOf(sc.deployment)); err != nil {
		return err
	}
	sc.deployment = d.Deployment
	if d.HPA != nil {
		if err := sc.apply(ctx, d.HPA, rvOf(sc.hpa)); err != nil {
			return err
		}
		sc.hpa = d.HPA
		return nil
	}
	if sc.hpa != nil {
		err := sc.delete(ctx, sc.hpa)
		sc.hpa = nil
		return err
	}
	return nil
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

// deleteChildren removes the router's children this graph controls.
func (sc *scope) deleteChildren(ctx context.Context, span string) {
	if sc.deployment == nil && sc.service == nil && sc.hpa == nil {
		return
	}
	end := sc.spans.Start(span)
	var firstErr error
	for _, obj := range []client.Object{sc.hpa, sc.deployment, sc.service} {
		if isNil(obj) {
			continue
		}
		if err := sc.delete(ctx, obj); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	end(firstErr)
	sc.recordErr(firstErr)
	sc.deployment, sc.service, sc.hpa = nil, nil, nil
}

func (sc *scope) apply(ctx context.Context, obj client.Object, observedRV string) error {
	res, err := apply.Apply(ctx, sc.r.Client, obj, observedRV)
	if res.Changed {
		sc.changed = true
	}
	return err
}

func (sc *scope) delete(ctx context.Context, obj client.Object) error {
	gone, err := apply.DeleteIfControlled(ctx, sc.r.Client, obj, string(sc.ig.UID))
	if err == nil && !gone {
		sc.changed = true
	}
	return err
}

func (sc *scope) recordErr(err error) {
	if err != nil {
		sc.errs = append(sc.errs, err)
	}
}

func rvOf(obj client.Object) string {
	if isNil(obj) {
		return ""
	}
	return obj.GetResourceVersion()
}

// isNil reports whether obj is nil or a typed nil pointer (an unobserved child).
func isNil(obj client.Object) bool {
	return obj == nil || reflect.ValueOf(obj).IsNil()
}
