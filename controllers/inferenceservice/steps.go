package inferenceservice

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/machines/workload"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/ingress"
	"github.com/fsmserve/fsmserve/steps/outcome"
	"github.com/fsmserve/fsmserve/steps/serving"
)

// ReasonDeploymentRejected is the reason when the API server refuses the
// predictor's children (for example an invalid pod spec).
const ReasonDeploymentRejected = "DeploymentRejected"

// steps maps each activity of the machine to its step.
var steps = map[string]lifecycle.Step[*v1beta1.InferenceService, *world]{
	machine.ActivityEnsurePredictor: ensurePredictor,
	machine.ActivityRepairPods:      repairPods,
	machine.ActivityDeleteWorkloads: deleteWorkloads,
	machine.ActivityDeleteChildren:  deleteChildren,
	machine.ActivityRecheckChildren: lifecycle.Recheck[*v1beta1.InferenceService, *world],
}

// ensurePredictor applies the predictor's Service, Deployment and
// autoscaler, then its Ingress, and removes predictors left under an earlier
// name once the current one is rolled out.
func ensurePredictor(ctx context.Context, r *run) outcome.Outcome {
	w := r.World
	if w.desired == nil {
		return outcome.OK(false)
	}
	end := r.Spans.Start("Step EnsurePredictor", attribute.String("k8s.deployment.name", w.desired.Deployment.Name))
	changed, err := applyPredictor(ctx, r)
	end(err, attribute.Bool("fsmserve.changed", changed))
	out := apply.Outcome(err, changed, ReasonDeploymentRejected, "the predictor", "fix the predictor spec")
	if out.Succeeded() && workload.Of(w.serving.Deployment, true).Complete() {
		out = out.Then(deleteStalePredictors(ctx, r))
	}
	return out.Then(ensureIngress(ctx, r))
}

func applyPredictor(ctx context.Context, r *run) (bool, error) {
	w, d := r.World, r.World.desired
	serving.StampTemplate(d.Deployment, w.serving.Deployment, r.TraceParent)
	now, changed, err := serving.Ensure(ctx, w.applier, d.Children, w.serving)
	w.serving = now
	return changed, err
}

// ensureIngress routes external traffic to the predictor once it serves, and
// removes an Ingress that is no longer wanted (cluster-local, disabled).
func ensureIngress(ctx context.Context, r *run) outcome.Outcome {
	w, isvc := r.World, r.Object
	if !ingress.Wanted(isvc, &w.cfg.Ingress) {
		if w.ingress == nil {
			return outcome.OK(false)
		}
		_, err := w.applier.Delete(ctx, w.ingress)
		w.ingress = nil
		return apply.Outcome(err, err == nil, ReasonDeploymentRejected, "the Ingress", "check the ingress configuration")
	}
	if !workload.Of(w.serving.Deployment, true).Serving {
		return outcome.OK(false)
	}
	ing, err := ingress.Ingress(isvc, &w.cfg.Ingress)
	if err != nil {
		return outcome.Error(err)
	}
	end := r.Spans.Start("Step EnsureIngress", attribute.String("k8s.ingress.name", ing.Name))
	res, err := w.applier.Apply(ctx, ing, w.ingress)
	end(err)
	if err == nil {
		w.ingress = ing
	}
	return apply.Outcome(err, res.Changed, ReasonDeploymentRejected, "the Ingress", "check the ingress configuration")
}

// deleteWorkloads removes the workloads of a stopped InferenceService.
func deleteWorkloads(ctx context.Context, r *run) outcome.Outcome {
	return deleteOwn(ctx, r, "Step DeleteWorkloads")
}

// deleteChildren removes every child before the InferenceService goes; the
// skeleton removes the finalizer once this succeeded and was published.
func deleteChildren(ctx context.Context, r *run) outcome.Outcome {
	return deleteOwn(ctx, r, "Step DeleteChildren")
}

// deleteOwn deletes the children this InferenceService controls (the world
// holds no other).
func deleteOwn(ctx context.Context, r *run, span string) outcome.Outcome {
	w := r.World
	children := append(apply.Present(w.ingress), w.serving.Present()...)
	if len(children) == 0 {
		return outcome.OK(false)
	}
	end := r.Spans.Start(span)
	out := w.applier.DeleteAll(ctx, children...)
	end(out.Err)
	w.serving, w.ingress = serving.Children{}, nil
	return out
}

// deleteStalePredictors removes predictor Deployments and Services left under
// an earlier predictor name, once the current one is fully rolled out, so
// renaming never leaves a gap in serving.
func deleteStalePredictors(ctx context.Context, r *run) outcome.Outcome {
	stale, err := stalePredictors(ctx, r.Client, r.Object)
	if err != nil {
		return outcome.Error(err)
	}
	return r.World.applier.DeleteAll(ctx, stale...)
}

// stalePredictors lists predictor Deployments and Services of this
// InferenceService whose name is not the current predictor's.
func stalePredictors(ctx context.Context, c client.Reader, isvc *v1beta1.InferenceService) ([]client.Object, error) {
	current := isvc.PredictorDeploymentName()
	selector := client.MatchingLabels{v1beta1.InferenceServiceLabel: isvc.Name, v1beta1.ComponentLabel: string(v1beta1.PredictorComponent)}
	var out []client.Object
	deps := &appsv1.DeploymentList{}
	if err := c.List(ctx, deps, client.InNamespace(isvc.Namespace), selector); err != nil {
		return nil, err
	}
	for i := range deps.Items {
		if deps.Items[i].Name != current {
			out = append(out, &deps.Items[i])
		}
	}
	svcs := &corev1.ServiceList{}
	if err := c.List(ctx, svcs, client.InNamespace(isvc.Namespace), selector); err != nil {
		return nil, err
	}
	for i := range svcs.Items {
		if svcs.Items[i].Name != current {
			out = append(out, &svcs.Items[i])
		}
	}
	return out, nil
}
