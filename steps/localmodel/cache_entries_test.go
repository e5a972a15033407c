package localmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

var (
	cacheKey    = "s3-key"
	testCache   = Cache{Ref: CacheRef{Name: "llama"}, Kind: "LocalModelCache", UID: "uid-1", Spec: v1alpha1.LocalModelCacheSpec{SourceModelUri: "hf://meta/llama", NodeGroups: []string{"gpu-a", "gpu-b"}, ServiceAccountName: "hf", Storage: &v1alpha1.LocalModelStorageSpec{StorageKey: &cacheKey}}}
	testNSCache = Cache{Ref: CacheRef{Name: "llama", Namespace: "team"}, Kind: "LocalModelNamespaceCache", UID: "uid-2", Spec: v1alpha1.LocalModelCacheSpec{SourceModelUri: "hf://meta/llama", NodeGroups: []string{"gpu-a"}}}
)

func TestEntry(t *testing.T) {
	e := Entry(testCache, "gpu-b")
	assert.Equal(t, v1alpha1.LocalModelInfo{SourceModelUri: "hf://meta/llama", ModelName: "llama", NodeGroup: "gpu-b", ServiceAccountName: "hf",
		Storage: &v1alpha1.LocalModelStorageSpec{StorageKey: &cacheKey}}, e)
	assert.NotSame(t, testCache.Spec.Storage, e.Storage, "the entry owns its storage spec")
	assert.Equal(t, "team", Entry(testNSCache, "gpu-a").Namespace)
}

func TestUpsertAndRemoveKeepOtherCachesEntries(t *testing.T) {
	other := v1alpha1.LocalModelInfo{ModelName: "bert", SourceModelUri: "s3://bert", NodeGroup: "gpu-a"}
	sameNameOtherNS := Entry(testNSCache, "gpu-a")
	mine := Entry(testCache, "gpu-a")
	list := []v1alpha1.LocalModelInfo{other, sameNameOtherNS}

	added, changed := UpsertEntry(list, mine)
	require.True(t, changed)
	assert.Equal(t, []v1alpha1.LocalModelInfo{other, sameNameOtherNS, mine}, added)
	assert.Len(t, list, 2, "the input is not modified")

	again, changed := UpsertEntry(added, Entry(testCache, "gpu-a"))
	assert.False(t, changed, "an identical entry is not written again")
	assert.Equal(t, added, again)

	moved, changed := UpsertEntry(added, Entry(testCache, "gpu-b"))
	require.True(t, changed)
	assert.Equal(t, "gpu-b", moved[2].NodeGroup, "the entry is replaced in place")
	assert.Equal(t, "gpu-a", added[2].NodeGroup, "the input is not modified")

	removed, changed := RemoveEntry(moved, testCache.Ref)
	require.True(t, changed)
	assert.Equal(t, []v1alpha1.LocalModelInfo{other, sameNameOtherNS}, removed)
	_, changed = RemoveEntry(removed, testCache.Ref)
	assert.False(t, changed)

	last, _ := RemoveEntry([]v1alpha1.LocalModelInfo{mine}, testCache.Ref)
	assert.NotNil(t, last, "localModels is required, so an empty list is [] not null")
	assert.Empty(t, last)
}

func TestHasEntryComparesEveryField(t *testing.T) {
	list := []v1alpha1.LocalModelInfo{Entry(testCache, "gpu-a")}
	assert.True(t, HasEntry(list, Entry(testCache, "gpu-a")))
	changedSA := testCache
	changedSA.Spec.ServiceAccountName = "other"
	assert.False(t, HasEntry(list, Entry(changedSA, "gpu-a")))
	assert.False(t, HasEntry(list, Entry(testCache, "gpu-b")))
	assert.False(t, HasEntry(nil, Entry(testCache, "gpu-a")))
}

func TestMembersTakeTheFirstGroupInSpecOrder(t *testing.T) {
	a := cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpIn, "a"))
	a.Name = "gpu-a"
	any := cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpExists))
	any.Name = "any"
	nodes := []corev1.Node{
		*cacheTestNode("z", map[string]string{"pool": "a"}, corev1.ConditionTrue),
		*cacheTestNode("y", map[string]string{"pool": "b"}, corev1.ConditionFalse),
		*cacheTestNode("x", nil, corev1.ConditionTrue),
	}
	assert.Equal(t, []Member{{Node: "y", Group: "any"}, {Node: "z", Group: "gpu-a", Ready: true}},
		Members([]*v1alpha1.LocalModelNodeGroup{a, any}, nodes))
	assert.Equal(t, []Member{{Node: "y", Group: "any"}, {Node: "z", Group: "any", Ready: true}},
		Members([]*v1alpha1.LocalModelNodeGroup{any, a}, nodes))
}

func TestNodeStatusAndCopies(t *testing.T) {
	lmn := &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: v1alpha1.LocalModelNodeStatus{ModelStatus: map[string]v1alpha1.ModelStatus{
		"llama": v1alpha1.ModelDownloaded, "team/llama": v1alpha1.ModelDownloadError}}}
	ready := Member{Node: "n", Group: "gpu-a", Ready: true}
	assert.Equal(t, v1alpha1.NodeDownloaded, NodeStatusOf(ready, lmn, testCache.Ref))
	assert.Equal(t, v1alpha1.NodeDownloadError, NodeStatusOf(ready, lmn, testNSCache.Ref), "namespace caches report under namespace/name")
	assert.Equal(t, v1alpha1.NodeDownloadPending, NodeStatusOf(ready, nil, testCache.Ref))
	assert.Equal(t, v1alpha1.NodeNotReady, NodeStatusOf(Member{Node: "n"}, lmn, testCache.Ref))
	for model, node := range map[v1alpha1.ModelStatus]v1alpha1.NodeStatus{
		v1alpha1.ModelDownloadPending: v1alpha1.NodeDownloadPending, v1alpha1.ModelDownloading: v1alpha1.NodeDownloading,
		v1alpha1.ModelDownloaded: v1alpha1.NodeDownloaded, v1alpha1.ModelDownloadError: v1alpha1.NodeDownloadError, "": v1alpha1.NodeDownloadPending,
	} {
		assert.Equal(t, node, NodeStatusFromModel(model), model)
	}
	assert.Equal(t, &v1alpha1.ModelCopies{Total: 4, Available: 2, Failed: 1}, CopiesOf(map[string]v1alpha1.NodeStatus{
		"a": v1alpha1.NodeDownloaded, "b": v1alpha1.NodeDownloaded, "c": v1alpha1.NodeDownloadError, "d": v1alpha1.NodeNotReady}))
	assert.Equal(t, &v1alpha1.ModelCopies{}, CopiesOf(nil))
}
