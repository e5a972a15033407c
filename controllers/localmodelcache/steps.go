package localmodelcache

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// steps maps each activity of the machine to its step.
var steps = map[string]lifecycle.Step[client.Object, *world]{
	machine.ActivityDistribute:       distribute,
	machine.ActivityEnsureVolumes:    ensureVolumes,
	machine.ActivityRemoveEverywhere: removeEverywhere,
}

// distribute writes the cache's entries, then its volumes; the next
// observation reads the LocalModelNodes as written.
func distribute(ctx context.Context, r *run) outcome.Outcome {
	return r.World.distribute(ctx).Then(r.World.ensureVolumes(ctx))
}

func ensureVolumes(ctx context.Context, r *run) outcome.Outcome { return r.World.ensureVolumes(ctx) }

// removeEverywhere removes the model from every node and deletes the cache's
// volumes; the skeleton removes the finalizer once this succeeded and was
// published.
func removeEverywhere(ctx context.Context, r *run) outcome.Outcome {
	w := r.World
	out := w.removeEverywhere(ctx)
	vols, err := w.listVolumes(ctx, "")
	if err != nil {
		return out.Then(outcome.Error(err))
	}
	return out.Then(w.deleteVolumes(ctx, "Step DeleteVolumes", vols))
}
