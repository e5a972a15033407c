package nodecache

import "github.com/fsmserve/fsmserve/machines/engine"

// Define declares the transitions. Removal from the spec is declared once on
// Active; Evicting sits outside it, so a model being evicted can only finish
// its eviction or be asked for again.
func Define(b *engine.Builder[State, Trigger, Observation]) {
	b.Configure(Active).
		Permit(ModelRemoved, Evicting)
	b.Configure(Absent).SubstateOf(Active).
		Permit(DownloadRequested, Downloading).
		Permit(CapacityExceeded, WaitingForCapacity)
	b.Configure(Recovering).SubstateOf(Active).
		Permit(Recovered, Absent)
	b.Configure(WaitingForCapacity).SubstateOf(Active).
		Permit(CapacityAvailable, Downloading)
	for _, s := range []State{Absent, Recovering, WaitingForCapacity, Failed} {
		b.Configure(s).Permit(FolderFound, Cached)
	}
	b.Configure(Downloading).SubstateOf(Active).
		Permit(DownloadSucceeded, Cached).
		Permit(DownloadFailed, Failed)
	b.Configure(Failed).SubstateOf(Active).
		Permit(DownloadRetried, Downloading)
	b.Configure(Cached).SubstateOf(Active).
		Permit(FolderLost, Downloading)
	b.Configure(Evicting).
		Permit(EvictionComplete, Absent).
		Permit(ModelRequested, Absent)
}
