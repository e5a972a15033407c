package inferencegraph

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/apply"
	"github.com/fsmserve/fsmserve/steps/graph"
	"github.com/fsmserve/fsmserve/steps/serving"
)

// world is what one reconcile read about an InferenceGraph: configuration,
// the resolved router, and its children (as observed, then as applied).
type world struct {
	cfg     *config.Config
	cfgErrs *config.Errors
	mode    config.DeploymentMode
	applier apply.Applier

	// Resolution: the desired router, or the problem that prevents it.
	desired *graph.Desired
	host    string
	problem machine.Problem

	// Children this graph controls (nil: absent).
	deployment *appsv1.Deployment
	service    *corev1.Service
	hpa        *autoscalingv2.HorizontalPodAutoscaler
}

// observe reads everything the machine decides on: configuration, the
// InferenceServices the steps name, and the router's children. Errors here
// are transient API errors and requeue.
func (r *Reconciler) observe(ctx context.Context, rn *run) (*world, error) {
	ig := rn.Object
	w := &world{applier: apply.Applier{Client: r.Client, Live: r.APIReader, Owner: ig, OwnerKind: "InferenceGraph"}}
	var err error
	if w.cfg, w.cfgErrs, err = r.Config.Load(ctx); err != nil {
		return nil, err
	}
	w.mode = w.cfg.Deploy.ModeFor(ig.Status.DeploymentMode, ig.Annotations)
	if err := w.resolve(ctx, r.Client, ig); err != nil {
		return nil, err
	}
	reader := client.Reader(r.Client)
	if stateOf(ig) == string(machine.ChildConflict) && r.APIReader != nil {
		// A foreign child may not be in the cache (it lacks fsmserve's
		// labels): while waiting for it to go, ask the API server.
		reader = r.APIReader
	}
	return w, w.observeChildren(ctx, reader, ig)
}

func (w *world) observeChildren(ctx context.Context, c client.Reader, ig *v1alpha1.InferenceGraph) error {
	ns, name := ig.Namespace, ig.Name
	var err error
	if w.deployment, err = apply.GetOptional(ctx, c, ns, name, &appsv1.Deployment{}); err != nil {
		return err
	}
	if w.service, err = apply.GetOptional(ctx, c, ns, name, &corev1.Service{}); err != nil {
		return err
	}
	if w.hpa, err = apply.GetOptional(ctx, c, ns, name, &autoscalingv2.HorizontalPodAutoscaler{}); err != nil {
		return err
	}
	w.keepOwnChildren()
	return nil
}

// keepOwnChildren sets aside children this graph does not control: the
// first one found is the problem (when nothing else is), and none of them is
// ever applied over or deleted.
func (w *world) keepOwnChildren() {
	var foreign error
	own := func(obj client.Object) bool {
		err := w.applier.Check(obj)
		if err != nil && foreign == nil {
			foreign = err
		}
		return err == nil
	}
	if !own(w.deployment) {
		w.deployment = nil
	}
	if !own(w.service) {
		w.service = nil
	}
	if !own(w.hpa) {
		w.hpa = nil
	}
	if foreign != nil && w.problem.Kind == machine.NoProblem && w.desired != nil {
		w.problem = machine.Problem{Kind: machine.OwnershipProblem, Reason: apply.ReasonChildNotOwned, Message: foreign.Error()}
	}
}

// children are the serving children the world holds.
func (w *world) children() serving.Children {
	return serving.Children{Deployment: w.deployment, Service: w.service, HPA: w.hpa}
}
