package nodecache

import "github.com/fsmserve/fsmserve/machines/engine"

// Classify maps what the agent observed in state s to the trigger it implies.
// Order matters: eviction first, then leaving the spec, then a folder already
// on disk (shared with another entry, or kept across a restart) beats
// downloading it again, and capacity is only judged before a download starts.
func Classify(s State, o Observation) (Trigger, bool) {
	if s == Evicting {
		return engine.FirstOf(o.InSpec, ModelRequested, o.Evicted, EvictionComplete)
	}
	if !o.InSpec {
		// An absent model that left the spec has nothing to evict: the agent
		// forgets it.
		return engine.FirstOf(s != Absent, ModelRemoved, false, "")
	}
	verified := o.Folder.Verified
	switch s {
	case Recovering:
		return engine.FirstOf(verified, FolderFound, true, Recovered)
	case Absent:
		if verified {
			return FolderFound, true
		}
		return engine.FirstOf(!o.Capacity.Fits, CapacityExceeded, true, DownloadRequested)
	case WaitingForCapacity:
		return engine.FirstOf(verified, FolderFound, o.Capacity.Fits, CapacityAvailable)
	case Downloading:
		d := o.Download.Phase
		return engine.FirstOf(d == Succeeded && verified, DownloadSucceeded, d == GaveUp, DownloadFailed)
	case Failed:
		return engine.FirstOf(verified, FolderFound, o.Download.Phase == Running, DownloadRetried)
	case Cached:
		return engine.FirstOf(!verified, FolderLost, false, "")
	}
	return "", false
}
