package localmodelcache

import "github.com/fsmserve/fsmserve/machines/engine"

// Classify maps what the controller observed in state s to the trigger it
// implies. Order matters: deletion beats everything, a problem beats the
// nodes, the nodes' membership beats their download states.
func Classify(s State, o Observation) (Trigger, bool) {
	switch {
	case s == Deleting:
		return "", false
	case s == WaitingForUsers:
		return engine.FirstOf(len(o.Users) == 0, UsersGone, false, "")
	case o.Deleting:
		return DeletionRequested, true
	case s == Pending || s == Recovering:
		return Admitted, true
	case o.SpecChanged && reactsToSpecChange(s):
		return SpecChanged, true
	case s == ResolvingNodeGroups && o.SpecChanged:
		// Resolving takes the new generation up in its activity.
		return "", false
	}
	if t, ok := problemTrigger(s, o.Problem); ok || o.Problem.Kind != NoProblem {
		return t, ok
	}
	switch s {
	case ResolvingNodeGroups, WaitingForNodeGroup, ConfigInvalid:
		return NodeGroupsResolved, true
	}
	return nodesTrigger(s, o.Nodes)
}

// reactsToSpecChange lists the states where a new generation starts a new
// episode from ResolvingNodeGroups. Distributing re-reads the spec on its own.
func reactsToSpecChange(s State) bool {
	switch s {
	case Downloading, Ready, PartiallyFailed, Failed, WaitingForNodes:
		return true
	}
	return false
}

var problemRoute = map[ProblemKind]struct {
	state   State
	trigger Trigger
}{
	NodeGroupProblem: {WaitingForNodeGroup, NodeGroupMissing},
	ConfigProblem:    {ConfigInvalid, ConfigRejected},
}

func problemTrigger(s State, p Problem) (Trigger, bool) {
	route, known := problemRoute[p.Kind]
	if !known || route.state == s {
		return "", false
	}
	return route.trigger, true
}

// nodesTrigger decides from the nodes once the node groups are resolved.
func nodesTrigger(s State, n Nodes) (Trigger, bool) {
	switch {
	case n.Ready() == 0:
		return engine.FirstOf(s != WaitingForNodes, NoReadyNodes, false, "")
	case s == WaitingForNodes:
		return NodesAvailable, true
	case s == Distributing:
		return engine.FirstOf(len(n.Outdated) == 0, EntriesWritten, false, "")
	case len(n.Outdated) > 0:
		return NodesChanged, true
	}
	return copiesTrigger(s, n)
}

// copiesTrigger decides from what the node agents report, in a state that
// waits for copies.
func copiesTrigger(s State, n Nodes) (Trigger, bool) {
	all, allFailed, someFailed := n.AllDownloaded(), n.AllFailed(), len(n.Failed) > 0
	switch s {
	case Downloading:
		if all {
			return AllCopiesAvailable, true
		}
		return engine.FirstOf(allFailed, AllDownloadsFailed, someFailed, SomeDownloadsFailed)
	case Ready:
		if allFailed {
			return AllDownloadsFailed, true
		}
		return engine.FirstOf(someFailed, SomeDownloadsFailed, !all, DownloadsInProgress)
	case PartiallyFailed:
		if all {
			return AllCopiesAvailable, true
		}
		return engine.FirstOf(allFailed, AllDownloadsFailed, !someFailed, DownloadsInProgress)
	case Failed:
		if all {
			return AllCopiesAvailable, true
		}
		return engine.FirstOf(someFailed && !allFailed, SomeDownloadsFailed, !someFailed, DownloadsInProgress)
	}
	return "", false
}
