package localmodelcache

import "github.com/fsmserve/fsmserve/machines/engine"

// Define declares the transitions. Deletion, spec changes and problems are
// declared once on Active. Deletion waits in WaitingForUsers while an
// InferenceService still uses the cache: removing the model from the nodes
// would pull it from under running pods.
func Define(b *engine.Builder[State, Trigger, Observation]) {
	b.Configure(Active).
		Permit(DeletionRequested, WaitingForUsers, hasUsers).
		Permit(DeletionRequested, Deleting, hasNoUsers).
		Permit(SpecChanged, ResolvingNodeGroups).
		Permit(NodeGroupMissing, WaitingForNodeGroup).
		Permit(ConfigRejected, ConfigInvalid)
	for _, s := range []State{Pending, Recovering} {
		b.Configure(s).SubstateOf(Active).
			Permit(Admitted, ResolvingNodeGroups)
	}
	for _, s := range []State{ResolvingNodeGroups, WaitingForNodeGroup, ConfigInvalid} {
		b.Configure(s).SubstateOf(Active).
			Permit(NodeGroupsResolved, Distributing)
	}
	b.Configure(WaitingForNodes).SubstateOf(Active).
		Permit(NodesAvailable, Distributing)
	b.Configure(Distributing).SubstateOf(Active).
		Permit(EntriesWritten, Downloading).
		Permit(NoReadyNodes, WaitingForNodes)
	b.Configure(Downloading).SubstateOf(Active).
		Permit(AllCopiesAvailable, Ready).
		Permit(SomeDownloadsFailed, PartiallyFailed).
		Permit(AllDownloadsFailed, Failed).
		Permit(NodesChanged, Distributing).
		Permit(NoReadyNodes, WaitingForNodes)
	b.Configure(Ready).SubstateOf(Active).
		Permit(DownloadsInProgress, Downloading).
		Permit(SomeDownloadsFailed, PartiallyFailed).
		Permit(AllDownloadsFailed, Failed).
		Permit(NodesChanged, Distributing).
		Permit(NoReadyNodes, WaitingForNodes)
	b.Configure(PartiallyFailed).SubstateOf(Active).
		Permit(AllCopiesAvailable, Ready).
		Permit(DownloadsInProgress, Downloading).
		Permit(AllDownloadsFailed, Failed).
		Permit(NodesChanged, Distributing).
		Permit(NoReadyNodes, WaitingForNodes)
	b.Configure(Failed).SubstateOf(Active).
		Permit(AllCopiesAvailable, Ready).
		Permit(DownloadsInProgress, Downloading).
		Permit(SomeDownloadsFailed, PartiallyFailed).
		Permit(NodesChanged, Distributing).
		Permit(NoReadyNodes, WaitingForNodes)
	b.Configure(WaitingForUsers).
		Permit(UsersGone, Deleting)
	b.Configure(Deleting)
}

// hasUsers holds while an InferenceService still uses the cache.
func hasUsers(o Observation) bool {
	return len(o.Users) > 0
}

// hasNoUsers holds when no InferenceService uses the cache.
func hasNoUsers(o Observation) bool {
	return len(o.Users) == 0
}
