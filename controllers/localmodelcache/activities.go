package localmodelcache

import (
	"context"

	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
)

// act runs the current state's step. Steps are idempotent; their outcome goes
// back into the observation.
func (sc *scope) act(ctx context.Context, s machine.State, o machine.Observation) machine.Observation {
	switch s {
	case machine.ResolvingNodeGroups:
		o.SpecChanged = false // Resolving takes the new generation up.
	case machine.Distributing:
		o.SpecChanged = false
		sc.distribute(ctx)
		sc.ensureVolumes(ctx)
		o.Nodes = sc.nodesObservation()
	case machine.WaitingForNodes, machine.Downloading, machine.Ready, machine.PartiallyFailed, machine.Failed:
		sc.ensureVolumes(ctx)
	case machine.Deleting:
		sc.removeEverywhere(ctx)
		sc.deleteVolumes(ctx, "Step DeleteVolumes", sc.listVolumes(ctx, ""))
		// The finalizer goes after the status write has recorded Deleting and
		// the transition has been published; the Reconcile skeleton does it.
		sc.removeFinalizer = len(sc.errs) == 0
	}
	return o
}
