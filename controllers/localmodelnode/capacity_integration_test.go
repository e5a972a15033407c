package localmodelnode_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
)

func createCache(t *testing.T, name, size, group string) {
	t.Helper()
	c := &v1alpha1.LocalModelCache{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1alpha1.LocalModelCacheSpec{
		SourceModelUri: "gs://capacity/" + name, ModelSize: resource.MustParse(size), NodeGroups: []string{group}}}
	require.NoError(t, env.Client.Create(context.Background(), c))
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), c) })
}

func TestModelsThatDoNotFitWaitForCapacity(t *testing.T) {
	root, clk := t.TempDir(), clocktesting.NewFakeClock(epoch)
	startAgent(t, "capacity-node", root, clk, localmodelnode.DefaultRetryPolicy())
	ng := &v1alpha1.LocalModelNodeGroup{ObjectMeta: metav1.ObjectMeta{Name: "cap-gpu"}, Spec: v1alpha1.LocalModelNodeGroupSpec{
		StorageLimit: resource.MustParse("10Gi"),
		PersistentVolumeSpec: corev1.PersistentVolumeSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Capacity:               corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")},
			PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/mnt/models"}}},
		PersistentVolumeClaimSpec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}},
	}}
	require.NoError(t, env.Client.Create(context.Background(), ng))
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), ng) })
	createCache(t, "cap-a", "6Gi", "cap-gpu")
	createCache(t, "cap-b", "6Gi", "cap-gpu")
	createCache(t, "cap-c", "3Gi", "cap-gpu")
	entry := func(name string) v1alpha1.LocalModelInfo {
		return v1alpha1.LocalModelInfo{ModelName: name, SourceModelUri: "gs://capacity/" + name, NodeGroup: "cap-gpu"}
	}
	createNode(t, "capacity-node", entry("cap-a"), entry("cap-b"), entry("cap-c"))
	waitStates(t, "capacity-node", "cap-a", "Downloading", "JobCreated")
	waitStates(t, "capacity-node", "cap-c", "Downloading", "JobCreated")
	waitStates(t, "capacity-node", "cap-b", "WaitingForCapacity", "")
	l := getNode(t, "capacity-node").Status.Lifecycles["cap-b"]
	assert.Equal(t, "InsufficientCapacity", l.Reason)
	assert.Contains(t, l.Message, "needs 6Gi")
	assert.Empty(t, modelJobs(t, "capacity-node", &v1alpha1.LocalModelInfo{ModelName: "cap-b"}), "a model that does not fit gets no Job")

	n := getNode(t, "capacity-node")
	n.Spec.LocalModels = n.Spec.LocalModels[1:]
	require.NoError(t, env.Client.Update(context.Background(), n))
	waitStates(t, "capacity-node", "cap-b", "Downloading", "JobCreated")
}
