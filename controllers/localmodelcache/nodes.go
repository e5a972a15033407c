package localmodelcache

import (
	"sort"
	"strings"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// maxDetail bounds the agent's message quoted per failed node.
const maxDetail = 200

// nodesObservation sorts the member nodes by what their agents report and
// lists the LocalModelNodes that must change: Ready members without the
// current entry, and nodes that left the groups but still hold it.
func (w *world) nodesObservation() machine.Nodes {
	ref := w.cache.Ref
	n := machine.Nodes{Groups: w.view.spec.NodeGroups}
	for _, m := range w.members {
		lmn := w.nodes[m.Node]
		switch localmodel.NodeStatusOf(m, lmn, ref) {
		case v1alpha1.NodeNotReady:
			n.NotReady = append(n.NotReady, m.Node)
			continue
		case v1alpha1.NodeDownloaded:
			n.Downloaded = append(n.Downloaded, m.Node)
		case v1alpha1.NodeDownloading:
			n.Downloading = append(n.Downloading, m.Node)
		case v1alpha1.NodeDownloadError:
			n.Failed = append(n.Failed, failureOf(m.Node, lmn, ref))
		default:
			n.Pending = append(n.Pending, m.Node)
		}
		if lmn == nil || !localmodel.HasEntry(lmn.Spec.LocalModels, localmodel.Entry(w.cache, m.Group)) {
			n.Outdated = append(n.Outdated, m.Node)
		}
	}
	n.Outdated = append(n.Outdated, w.formerMembers()...)
	return n
}

// formerMembers lists, sorted, the nodes that hold the cache's entry but left
// its node groups (relabelled, or the group dropped from the spec). A
// LocalModelNode whose Node does not exist is left alone: the node may be
// away, and the agent of a node that is gone does nothing.
func (w *world) formerMembers() []string {
	member := map[string]bool{}
	for _, m := range w.members {
		member[m.Node] = true
	}
	var out []string
	for _, name := range w.holders() {
		if w.existing[name] && !member[name] {
			out = append(out, name)
		}
	}
	return out
}

// holders lists, sorted, the LocalModelNodes that hold the cache's entry.
func (w *world) holders() []string {
	var out []string
	for name, lmn := range w.nodes {
		if localmodel.EntryIndex(lmn.Spec.LocalModels, w.cache.Ref) >= 0 {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// failureOf is a failed node with what its agent's lifecycle for the model
// says, when the agent keeps one.
func failureOf(node string, lmn *v1alpha1.LocalModelNode, ref localmodel.CacheRef) machine.NodeFailure {
	f := machine.NodeFailure{Node: node}
	if lmn == nil {
		return f
	}
	if l, ok := lmn.Status.Lifecycles[localmodel.StatusKey(ref)]; ok {
		f.Reason = l.Reason
		f.Message = truncate(strings.TrimSpace(l.Message), maxDetail)
	}
	return f
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// nodeStatus is status.nodeStatus: every member node with KServe's per-node
// status.
func (w *world) nodeStatus() map[string]v1alpha1.NodeStatus {
	if len(w.members) == 0 {
		return nil
	}
	out := make(map[string]v1alpha1.NodeStatus, len(w.members))
	for _, m := range w.members {
		out[m.Node] = localmodel.NodeStatusOf(m, w.nodes[m.Node], w.cache.Ref)
	}
	return out
}
