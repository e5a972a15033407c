package inferenceservice

import (
	"context"
	"fmt"
	"reflect"

	"go.opentelemetry.io/otel/attribute"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/ingress"
)

// ReasonDeploymentRejected is the reason when the API server refuses the
// predictor's children (for example an invalid pod spec).
const ReasonDeploymentRejected = "DeploymentRejected"

// act runs the current state's step. Steps are idempotent; their outcome goes
// back into the observation.
func (sc *scope) act(ctx context.Context, s machine.State, o machine.Observation) machine.Observation {
	switch s {
	case machine.Resolving:
		o.SpecChanged = false // Resolving takes the new generation up.
	case machine.Deploying, machine.RollingOut, machine.Ready, machine.Degraded, machine.Failed:
		sc.ensurePredictor(ctx, &o)
		sc.ensureIngress(ctx, &o)
	case machine.Repairing:
		sc.ensurePredictor(ctx, &o)
		sc.repairPods(ctx, o.UninjectedPods)
	case machine.Stopped:
		sc.deleteChildren(ctx, "Step DeleteWorkloads")
		o.Predictor = machine.Workload{}
	case machine.Deleting:
		sc.deleteChildren(ctx, "Step DeleteChildren")
		// The finalizer goes after the status write has recorded Deleting and
		// the transition has been published; the Reconcile skeleton does it.
		sc.removeFinalizer = len(sc.errs) == 0
	}
	return o
}

// ensurePredictor applies the predictor's Service, Deployment and autoscaler.
func (sc *scope) ensurePredictor(ctx context.Context, o *machine.Observation) {
	if sc.desired == nil {
		return
	}
	end := sc.spans.Start("Step EnsurePredictor", attribute.String("k8s.deployment.name", sc.desired.Deployment.Name))
	err := sc.applyPredictor(ctx)
	end(err, attribute.Bool("fsmserve.changed", sc.changed))
	switch {
	case err == nil:
		o.Predictor = workloadOf(sc.deployment)
		if o.Predictor.Complete() {
			sc.deleteStalePredictors(ctx)
		}
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err):
		o.Problem = machine.Problem{Kind: machine.SpecProblem, Reason: ReasonDeploymentRejected,
			Message: fmt.Sprintf("the API server rejected the predictor: %v; fix the predictor spec", err)}
	default:
		sc.errs = append(sc.errs, err)
	}
}

func (sc *scope) applyPredictor(ctx context.Context) error {
	d := sc.desired
	if err := sc.apply(ctx, d.Service, rvOf(sc.service)); err != nil {
		return err
	}
	sc.service = d.Service
	stampTraceContext(d.Deployment, sc.deployment, sc.traceParent)
	if err := sc.apply(ctx, d.Deployment, rvOf(sc.deployment)); err != nil {
		return err
	}
	sc.deployment = d.Deployment
	if d.HPA != nil {
		return sc.apply(ctx, d.HPA, rvOf(sc.hpa))
	}
	if sc.hpa != nil {
		return sc.delete(ctx, sc.hpa)
	}
	return nil
}

// ensureIngress routes external traffic to the predictor once it serves, and
// removes an Ingress that is no longer wanted (cluster-local, disabled).
func (sc *scope) ensureIngress(ctx context.Context, o *machine.Observation) {
	if sc.desired == nil {
		return
	}
	if !ingress.Wanted(sc.isvc, &sc.cfg.Ingress) {
		if sc.ingress != nil {
			sc.recordErr(sc.delete(ctx, sc.ingress))
			sc.ingress = nil
		}
		return
	}
	if !o.Predictor.Serving {
		return
	}
	ing, err := ingress.Ingress(sc.isvc, &sc.cfg.Ingress)
	if err == nil {
		end := sc.spans.Start("Step EnsureIngress", attribute.String("k8s.ingress.name", ing.Name))
		err = sc.apply(ctx, ing, rvOf(sc.ingress))
		end(err)
	}
	if err != nil {
		sc.recordErr(err)
		return
	}
	sc.ingress = ing
}

// deleteChildren removes every child this InferenceService controls.
func (sc *scope) deleteChildren(ctx context.Context, span string) {
	if sc.deployment == nil && sc.service == nil && sc.hpa == nil && sc.ingress == nil {
		return
	}
	end := sc.spans.Start(span)
	var firstErr error
	for _, obj := range []client.Object{sc.ingress, sc.hpa, sc.deployment, sc.service} {
		if isNil(obj) {
			continue
		}
		if err := sc.delete(ctx, obj); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	end(firstErr)
	sc.recordErr(firstErr)
	sc.deployment, sc.service, sc.hpa, sc.ingress = nil, nil, nil, nil
}

// deleteStalePredictors removes predictor Deployments and Services left under
// an earlier predictor name, once the current one is fully rolled out, so
// renaming never leaves a gap in serving.
func (sc *scope) deleteStalePredictors(ctx context.Context) {
	stale, err := sc.stalePredictors(ctx)
	if err != nil {
		sc.recordErr(err)
		return
	}
	for _, obj := range stale {
		sc.recordErr(sc.delete(ctx, obj))
	}
}

func (sc *scope) apply(ctx context.Context, obj client.Object, observedRV string) error {
	res, err := apply.Apply(ctx, sc.r.Client, obj, observedRV)
	if res.Changed {
		sc.changed = true
	}
	return err
}

func (sc *scope) delete(ctx context.Context, obj client.Object) error {
	gone, err := apply.DeleteIfControlled(ctx, sc.r.Client, obj, string(sc.isvc.UID))
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

// stalePredictors lists predictor Deployments and Services of this
// InferenceService whose name is not the current predictor's.
func (sc *scope) stalePredictors(ctx context.Context) ([]client.Object, error) {
	current := sc.isvc.PredictorDeploymentName()
	selector := client.MatchingLabels{v1beta1.InferenceServiceLabel: sc.isvc.Name, v1beta1.ComponentLabel: string(v1beta1.PredictorComponent)}
	var out []client.Object
	deps := &appsv1.DeploymentList{}
	if err := sc.r.Client.List(ctx, deps, client.InNamespace(sc.isvc.Namespace), selector); err != nil {
		return nil, err
	}
	for i := range deps.Items {
		if deps.Items[i].Name != current {
			out = append(out, &deps.Items[i])
		}
	}
	svcs := &corev1.ServiceList{}
	if err := sc.r.Client.List(ctx, svcs, client.InNamespace(sc.isvc.Namespace), selector); err != nil {
		return nil, err
	}
	for i := range svcs.Items {
		if svcs.Items[i].Name != current {
			out = append(out, &svcs.Items[i])
		}
	}
	return out, nil
}
