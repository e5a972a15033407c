package localmodel

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// Member is a node of a cache's node groups: the first of the cache's node
// groups (in spec order) whose affinity it matches.
type Member struct {
	Node  string
	Group string
	Ready bool
}

// Members lists the nodes that belong to any of groups (in the cache's
// spec.nodeGroups order; missing groups left out), sorted by node name.
func Members(groups []*v1alpha1.LocalModelNodeGroup, nodes []corev1.Node) []Member {
	var out []Member
	for i := range nodes {
		node := &nodes[i]
		for _, g := range groups {
			if InNodeGroup(g, node) {
				out = append(out, Member{Node: node.Name, Group: g.Name, Ready: NodeReady(node)})
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Node < out[j].Node })
	return out
}

// Entry is what a cache asks the node agent of a node in group to hold.
func Entry(c Cache, group string) v1alpha1.LocalModelInfo {
	return v1alpha1.LocalModelInfo{
		SourceModelUri:     c.Spec.SourceModelUri,
		ModelName:          c.Ref.Name,
		Namespace:          c.Ref.Namespace,
		NodeGroup:          group,
		ServiceAccountName: c.Spec.ServiceAccountName,
		Storage:            c.Spec.Storage.DeepCopy(),
	}
}

// EntryIndex returns the index of the cache's entry in list, or -1. An entry
// belongs to a cache by model name and namespace, as in KServe.
func EntryIndex(list []v1alpha1.LocalModelInfo, c CacheRef) int {
	for i := range list {
		if list[i].ModelName == c.Name && list[i].Namespace == c.Namespace {
			return i
		}
	}
	return -1
}

// HasEntry reports whether list holds exactly entry for its cache.
func HasEntry(list []v1alpha1.LocalModelInfo, entry v1alpha1.LocalModelInfo) bool {
	i := EntryIndex(list, CacheRef{Name: entry.ModelName, Namespace: entry.Namespace})
	return i >= 0 && equality.Semantic.DeepEqual(list[i], entry)
}

// UpsertEntry returns list with entry added or replacing the cache's entry,
// and whether that changed anything. Other caches' entries keep their place
// and content; list itself is not modified.
func UpsertEntry(list []v1alpha1.LocalModelInfo, entry v1alpha1.LocalModelInfo) ([]v1alpha1.LocalModelInfo, bool) {
	if HasEntry(list, entry) {
		return list, false
	}
	out := append([]v1alpha1.LocalModelInfo(nil), list...)
	if i := EntryIndex(out, CacheRef{Name: entry.ModelName, Namespace: entry.Namespace}); i >= 0 {
		out[i] = entry
		return out, true
	}
	return append(out, entry), true
}

// RemoveEntry returns list without the cache's entry, and whether it was
// there; list itself is not modified. The result is never nil: localModels
// is a required field, so an empty list is written as [].
func RemoveEntry(list []v1alpha1.LocalModelInfo, c CacheRef) ([]v1alpha1.LocalModelInfo, bool) {
	i := EntryIndex(list, c)
	if i < 0 {
		return list, false
	}
	out := make([]v1alpha1.LocalModelInfo, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...), true
}

// StatusKey is the key of a cache's model in LocalModelNode status: the name,
// or namespace/name for a namespace cache.
func StatusKey(c CacheRef) string {
	info := v1alpha1.LocalModelInfo{ModelName: c.Name, Namespace: c.Namespace}
	return info.GetStatusKey()
}
