package localmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

func volumeGroup() *v1alpha1.LocalModelNodeGroup {
	g := cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpIn, "a"))
	g.Name = "gpu-a"
	g.Spec.PersistentVolumeSpec.Capacity = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}
	g.Spec.PersistentVolumeSpec.PersistentVolumeSource = corev1.PersistentVolumeSource{Local: &corev1.LocalVolumeSource{Path: "/mnt/models"}}
	g.Spec.PersistentVolumeClaimSpec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadOnlyMany}
	return g
}

func TestDownloadVolume(t *testing.T) {
	g := volumeGroup()
	v := DownloadVolume(testCache, g, "jobs")
	assert.Equal(t, "llama-gpu-a-download", v.PV.Name)
	assert.Equal(t, "llama-gpu-a", v.PVC.Name)
	assert.Equal(t, "jobs", v.PVC.Namespace)
	assert.Equal(t, v.PV.Name, v.PVC.Spec.VolumeName, "the claim binds its volume by name")
	assert.Equal(t, "/mnt/models", v.PV.Spec.Local.Path)
	assert.Equal(t, PurposeDownload, v.PV.Labels[LabelPurpose])
	assert.Equal(t, "LocalModelCache", v.PV.OwnerReferences[0].Kind, "a cluster cache owns its volumes")
	assert.Equal(t, "LocalModelCache", v.PVC.OwnerReferences[0].Kind)
	assert.Empty(t, g.Spec.PersistentVolumeClaimSpec.VolumeName, "the node group's template is not modified")

	nv := DownloadVolume(testNSCache, g, "jobs")
	assert.Equal(t, "llama-gpu-a-team-download", nv.PV.Name)
	assert.Equal(t, "llama-gpu-a-team-download", nv.PVC.Name)
	assert.Empty(t, nv.PV.OwnerReferences, "a namespaced cache cannot own a PersistentVolume")
	assert.Empty(t, nv.PVC.OwnerReferences, "nor a claim in another namespace")
}

func TestServingVolume(t *testing.T) {
	v := ServingVolume(testNSCache, volumeGroup(), "team")
	assert.Equal(t, "llama-gpu-a-team", v.PV.Name)
	assert.Equal(t, "llama-gpu-a", v.PVC.Name)
	assert.Equal(t, "team", v.PV.Labels[LabelServedNamespace])
	assert.Equal(t, "LocalModelNamespaceCache", v.PVC.OwnerReferences[0].Kind, "a claim in the cache's own namespace is owned")
	assert.Equal(t, PurposeServing, v.PVC.Labels[LabelPurpose])
}

func TestPlaceServing(t *testing.T) {
	groups := []string{"gpu-a", "gpu-b"}
	p := PlaceServing(groups, []User{
		{Namespace: "prod"}, {Namespace: "prod", NodeGroup: "gpu-b"}, {Namespace: "dev", NodeGroup: "gpu-b"},
		{Namespace: "dev", NodeGroup: "not-a-group"}, {Namespace: "qa", NodeGroup: "nope"},
	})
	assert.Equal(t, ServingPlacement{"prod": {"gpu-a", "gpu-b"}, "dev": {"gpu-b"}}, p)
	assert.True(t, p.Has("prod", "gpu-a"))
	assert.False(t, p.Has("dev", "gpu-a"))
	assert.Empty(t, PlaceServing(nil, []User{{Namespace: "prod"}}))
}
