package inferenceservice

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/predictor"
	"github.com/fsmserve/fsmserve/steps/runtime"
	"github.com/fsmserve/fsmserve/steps/serving"
)

// world is what one reconcile read about an InferenceService: configuration,
// the resolution of its predictor, and its children (as observed, then as
// the steps applied them). Nothing else: outcomes live in the run.
type world struct {
	cfg           *config.Config
	cfgErrs       *config.Errors
	mode          config.DeploymentMode
	clusterDomain string
	applier       apply.Applier

	// Resolution: the normalized spec, the chosen runtime, the desired
	// children, or the problem that prevents building them.
	work    *v1beta1.InferenceService
	runtime *runtime.Runtime
	desired *predictor.Desired
	problem machine.Problem

	// Children this InferenceService controls (nil: absent).
	serving serving.Children
	ingress *networkingv1.Ingress
	pods    []corev1.Pod
}

// observe reads everything the machine decides on: configuration, runtimes
// and children. Errors here are transient API errors and requeue.
func (r *Reconciler) observe(ctx context.Context, rn *run) (*world, error) {
	isvc := rn.Object
	w := &world{clusterDomain: r.ClusterDomain,
		applier: apply.Applier{Client: r.Client, Live: r.APIReader, Owner: isvc, OwnerKind: "InferenceService"}}
	var err error
	if w.cfg, w.cfgErrs, err = r.Config.Load(ctx); err != nil {
		return nil, err
	}
	w.mode = w.cfg.Deploy.ModeFor(isvc.Status.DeploymentMode, isvc.Annotations)
	if err := w.resolve(ctx, r.Client, isvc); err != nil {
		return nil, err
	}
	reader := client.Reader(r.Client)
	if stateOf(isvc) == string(machine.ChildConflict) && r.APIReader != nil {
		// A foreign child may not be in the cache (it lacks fsmserve's
		// labels): while waiting for it to go, ask the API server.
		reader = r.APIReader
	}
	return w, w.observeChildren(ctx, reader, isvc)
}

func (w *world) observeChildren(ctx context.Context, c client.Reader, isvc *v1beta1.InferenceService) error {
	ns, name := isvc.Namespace, isvc.PredictorDeploymentName()
	var err error
	if w.serving, err = serving.Observe(ctx, c, ns, name); err != nil {
		return err
	}
	if w.ingress, err = apply.GetOptional(ctx, c, ns, isvc.Name, &networkingv1.Ingress{}); err != nil {
		return err
	}
	w.keepOwnChildren()
	pods := &corev1.PodList{}
	if err := c.List(ctx, pods, client.InNamespace(ns), client.MatchingLabels{v1beta1.AppLabel: "isvc." + name}); err != nil {
		return err
	}
	w.pods = pods.Items
	return nil
}

// keepOwnChildren sets aside children this object does not control: the
// first one found is the problem (when nothing else is), and none of them is
// ever applied over or deleted.
func (w *world) keepOwnChildren() {
	foreign := w.serving.KeepOwn(w.applier)
	if err := w.applier.Check(w.ingress); err != nil {
		w.ingress = nil
		if foreign == nil {
			foreign = err
		}
	}
	if foreign != nil && w.problem.Kind == machine.NoProblem && w.desired != nil {
		w.problem = ownershipProblem(foreign)
	}
}

func ownershipProblem(err error) machine.Problem {
	return machine.Problem{Kind: machine.OwnershipProblem, Reason: apply.ReasonChildNotOwned, Message: err.Error()}
}
