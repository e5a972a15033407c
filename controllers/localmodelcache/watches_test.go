package localmodelcache

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

func poolGroup(name, pool string) *v1alpha1.LocalModelNodeGroup {
	return &v1alpha1.LocalModelNodeGroup{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1alpha1.LocalModelNodeGroupSpec{
		PersistentVolumeSpec: corev1.PersistentVolumeSpec{NodeAffinity: &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
				{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{pool}}}}}}}}}}
}

func withGroups(c *v1alpha1.LocalModelCache, groups ...string) *v1alpha1.LocalModelCache {
	c.Spec.NodeGroups = groups
	return c
}

func names(reqs []reconcile.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.Namespace+"/"+r.Name)
	}
	return out
}

func TestMapNodesToTheirCaches(t *testing.T) {
	listed := withGroups(testCache("listed"), "b")
	listed.Status.NodeStatus = map[string]v1alpha1.NodeStatus{"n1": v1alpha1.NodeDownloaded}
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(
		poolGroup("a", "a"), poolGroup("b", "b"),
		withGroups(testCache("first-group"), "a"), withGroups(testCache("second-group"), "b", "a"),
		withGroups(testCache("elsewhere"), "b"), listed, withGroups(testCache("missing-group"), "nope"),
	).Build()
	m := &mapper{c: c, kind: ClusterCaches}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"pool": "a"}}}
	assert.ElementsMatch(t, []string{"/first-group", "/second-group", "/listed"}, names(m.forNode(context.Background(), node)),
		"members through any of their groups, and caches that list the node (it may have left)")
}

func TestMapLocalModelNodesByKind(t *testing.T) {
	lmn := &v1alpha1.LocalModelNode{Spec: v1alpha1.LocalModelNodeSpec{LocalModels: []v1alpha1.LocalModelInfo{
		{ModelName: "cluster"}, {ModelName: "ns", Namespace: "team"}}}}
	assert.Equal(t, []string{"/cluster"}, names((&mapper{kind: ClusterCaches}).forLocalModelNode(context.Background(), lmn)))
	assert.Equal(t, []string{"team/ns"}, names((&mapper{kind: NamespaceCaches}).forLocalModelNode(context.Background(), lmn)))
}

func TestMapInferenceServicesToTheCacheTheirLabelsName(t *testing.T) {
	isvc := func(ns string, l map[string]string) client.Object {
		return &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: ns, Labels: l}}
	}
	cluster, namespaced := &mapper{kind: ClusterCaches}, &mapper{kind: NamespaceCaches}
	ctx := context.Background()
	clusterLabels := map[string]string{v1beta1.LocalModelLabel: "llama"}
	nsLabels := map[string]string{v1beta1.LocalModelLabel: "llama", v1beta1.LocalModelNamespaceLabel: "team"}
	assert.Equal(t, []string{"/llama"}, names(cluster.forInferenceService(ctx, isvc("prod", clusterLabels))))
	assert.Empty(t, namespaced.forInferenceService(ctx, isvc("prod", clusterLabels)))
	assert.Equal(t, []string{"team/llama"}, names(namespaced.forInferenceService(ctx, isvc("team", nsLabels))))
	assert.Empty(t, cluster.forInferenceService(ctx, isvc("team", nsLabels)))
	assert.Empty(t, namespaced.forInferenceService(ctx, isvc("other", nsLabels)), "a namespace cache serves only its namespace")
	assert.Empty(t, cluster.forInferenceService(ctx, isvc("prod", nil)))
}

func TestMapVolumesAndNodeGroups(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(
		withGroups(testCache("uses-a"), "b", "a"), withGroups(testCache("uses-b"), "b")).Build()
	m := &mapper{c: c, kind: ClusterCaches}
	assert.Equal(t, []string{"/uses-a"}, names(m.forNodeGroup(ctx, poolGroup("a", "a"))))
	assert.ElementsMatch(t, []string{"/uses-a", "/uses-b"}, names(m.forAll(ctx, nil)))
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{
		Labels: localmodel.VolumeLabels(localmodel.CacheRef{Name: "llama", Namespace: "team"}, localmodel.PurposeServing, "a")}}
	assert.Empty(t, m.forVolume(ctx, pvc))
	assert.Equal(t, []string{"team/llama"}, names((&mapper{kind: NamespaceCaches}).forVolume(ctx, pvc)))
}

func TestPredicates(t *testing.T) {
	ready := func(s corev1.ConditionStatus, l map[string]string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: l}, Status: corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: s, Reason: "heartbeat"}}}}
	}
	nodes := nodeMembershipChanged()
	assert.False(t, nodes.Update(event.UpdateEvent{ObjectOld: ready("True", nil), ObjectNew: ready("True", nil)}), "a heartbeat")
	assert.True(t, nodes.Update(event.UpdateEvent{ObjectOld: ready("False", nil), ObjectNew: ready("True", nil)}), "NotReady -> Ready")
	assert.True(t, nodes.Update(event.UpdateEvent{ObjectOld: ready("True", nil), ObjectNew: ready("True", map[string]string{"pool": "a"})}), "relabelled")
	assert.True(t, nodes.Create(event.CreateEvent{Object: ready("True", nil)}), "a node joins")

	usage := usageChanged()
	labelled := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{v1beta1.LocalModelLabel: "llama"}}}
	plain := &v1beta1.InferenceService{}
	pinned := labelled.DeepCopy()
	pinned.Annotations = map[string]string{v1beta1.NodeGroupAnnotation: "b"}
	assert.True(t, usage.Create(event.CreateEvent{Object: labelled}))
	assert.False(t, usage.Create(event.CreateEvent{Object: plain}))
	assert.True(t, usage.Delete(event.DeleteEvent{Object: labelled}))
	assert.True(t, usage.Update(event.UpdateEvent{ObjectOld: plain, ObjectNew: labelled}))
	assert.True(t, usage.Update(event.UpdateEvent{ObjectOld: labelled, ObjectNew: pinned}), "a different node group")
	assert.False(t, usage.Update(event.UpdateEvent{ObjectOld: labelled, ObjectNew: labelled.DeepCopy()}))

	lmn := localModelNodeChanged()
	before := &v1alpha1.LocalModelNode{}
	after := before.DeepCopy()
	after.Status.ModelStatus = map[string]v1alpha1.ModelStatus{"llama": v1alpha1.ModelDownloaded}
	assert.True(t, lmn.Update(event.UpdateEvent{ObjectOld: before, ObjectNew: after}))
	same := before.DeepCopy()
	same.ResourceVersion = "2"
	assert.False(t, lmn.Update(event.UpdateEvent{ObjectOld: before, ObjectNew: same}))
	require.False(t, deleted().Update(event.UpdateEvent{ObjectOld: before, ObjectNew: after}))
}
