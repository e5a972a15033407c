package inferencegraph

import (
	"context"

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
	serving serving.Children
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
	var err error
	if w.serving, err = serving.Observe(ctx, c, ig.Namespace, ig.Name); err != nil {
		return err
	}
	// Children this graph does not control are set aside: the first is the
	// problem (when nothing else is), and none is applied over or deleted.
	foreign := w.serving.KeepOwn(w.applier)
	if foreign != nil && w.problem.Kind == machine.NoProblem && w.desired != nil {
		w.problem = machine.Problem{Kind: machine.OwnershipProblem, Reason: apply.ReasonChildNotOwned, Message: foreign.Error()}
	}
	return nil
}
