package localmodel

import (
	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// NodeStatusFromModel maps what a node agent reports for a model to the
// cache's per-node status, as KServe maps it; no report yet is pending.
func NodeStatusFromModel(s v1alpha1.ModelStatus) v1alpha1.NodeStatus {
	switch s {
	case v1alpha1.ModelDownloading:
		return v1alpha1.NodeDownloading
	case v1alpha1.ModelDownloaded:
		return v1alpha1.NodeDownloaded
	case v1alpha1.ModelDownloadError:
		return v1alpha1.NodeDownloadError
	}
	return v1alpha1.NodeDownloadPending
}

// NodeStatusOf is the cache's status on a member node: NodeNotReady while the
// node is not Ready, else what its agent reports in the LocalModelNode (nil
// when the node has none yet).
func NodeStatusOf(m Member, node *v1alpha1.LocalModelNode, c CacheRef) v1alpha1.NodeStatus {
	if !m.Ready {
		return v1alpha1.NodeNotReady
	}
	if node == nil {
		return v1alpha1.NodeDownloadPending
	}
	return NodeStatusFromModel(node.Status.ModelStatus[StatusKey(c)])
}

// CopiesOf counts a cache's copies as KServe does: total is every node in
// status, available those downloaded, failed those whose download failed.
func CopiesOf(nodeStatus map[string]v1alpha1.NodeStatus) *v1alpha1.ModelCopies {
	out := &v1alpha1.ModelCopies{Total: len(nodeStatus)}
	for _, s := range nodeStatus {
		switch s {
		case v1alpha1.NodeDownloaded:
			out.Available++
		case v1alpha1.NodeDownloadError:
			out.Failed++
		}
	}
	return out
}
