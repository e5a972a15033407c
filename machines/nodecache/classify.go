package nodecache

// Classify maps what the agent observed in state s to the trigger it implies.
// Order matters: eviction first, then leaving the spec, then a folder already
// on disk (shared with another entry, or kept across a restart) beats
// downloading it again, and capacity is only judged before a download starts.
func Classify(s State, o Observation) (Trigger, bool) {
	if s == Evicting {
		return firstOf(o.InSpec, ModelRequested, o.Evicted, EvictionComplete)
	}
	if !o.InSpec {
		// An absent model that left the spec has nothing to evict: the agent
		// forgets it.
		return firstOf(s != Absent, ModelRemoved, false, "")
	}
	verified := o.Folder.Verified
	switch s {
	case Recovering:
		return firstOf(verified, FolderFound, true, Recovered)
	case Absent:
		if verified {
			return FolderFound, true
		}
		return firstOf(!o.Capacity.Fits, CapacityExceeded, true, DownloadRequested)
	case WaitingForCapacity:
		return firstOf(verified, FolderFound, o.Capacity.Fits, CapacityAvailable)
	case Downloading:
		d := o.Download.Phase
		return firstOf(d == Succeeded && verified, DownloadSucceeded, d == GaveUp, DownloadFailed)
	case Failed:
		return firstOf(verified, FolderFound, o.Download.Phase == Running, DownloadRetried)
	case Cached:
		return firstOf(!verified, FolderLost, false, "")
	}
	return "", false
}

// firstOf returns the trigger of the first condition that holds.
func firstOf(c1 bool, t1 Trigger, c2 bool, t2 Trigger) (Trigger, bool) {
	switch {
	case c1:
		return t1, true
	case c2:
		return t2, true
	}
	return "", false
}
