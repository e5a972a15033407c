package localmodel

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// Cache is what the volume and entry builders need of a LocalModelCache or
// LocalModelNamespaceCache.
type Cache struct {
	Ref CacheRef
	UID types.UID
	// Kind is LocalModelCache or LocalModelNamespaceCache.
	Kind string
	Spec v1alpha1.LocalModelCacheSpec
}

// Volume is a PersistentVolume and the claim bound to it by name.
type Volume struct {
	PV  *corev1.PersistentVolume
	PVC *corev1.PersistentVolumeClaim
}

// DownloadVolume is the volume the download Jobs of one node group write the
// model to: the node group's templates, the claim in the job namespace.
func DownloadVolume(c Cache, group *v1alpha1.LocalModelNodeGroup, jobNamespace string) Volume {
	return c.volume(group, DownloadPVName(c.Ref, group.Name), DownloadPVCName(c.Ref, group.Name), jobNamespace, PurposeDownload)
}

// ServingVolume is the volume InferenceServices of one namespace mount to
// read the model of one node group.
func ServingVolume(c Cache, group *v1alpha1.LocalModelNodeGroup, namespace string) Volume {
	return c.volume(group, ServingPVName(c.Ref, group.Name, namespace), ServingPVCName(c.Ref, group.Name), namespace, PurposeServing)
}

func (c Cache) volume(group *v1alpha1.LocalModelNodeGroup, pvName, pvcName, namespace, purpose string) Volume {
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: pvName, Labels: VolumeLabels(c.Ref, purpose, group.Name)},
		Spec:       *group.Spec.PersistentVolumeSpec.DeepCopy(),
	}
	if purpose == PurposeServing {
		pv.Labels[LabelServedNamespace] = namespace
	}
	pvc := &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: pvcName, Namespace: namespace, Labels: VolumeLabels(c.Ref, purpose, group.Name)},
		Spec:       *group.Spec.PersistentVolumeClaimSpec.DeepCopy(),
	}
	pvc.Spec.VolumeName = pvName
	// A cluster cache owns all its volumes, so the garbage collector removes
	// them with it. A namespaced owner can own neither a PersistentVolume nor
	// a claim in another namespace; those are deleted by the controller.
	if ref := c.ownerRef(); ref != nil {
		if c.Ref.Namespace == "" {
			pv.OwnerReferences = []metav1.OwnerReference{*ref}
		}
		if c.Ref.Namespace == "" || c.Ref.Namespace == namespace {
			pvc.OwnerReferences = []metav1.OwnerReference{*ref}
		}
	}
	return Volume{PV: pv, PVC: pvc}
}

func (c Cache) ownerRef() *metav1.OwnerReference {
	if c.UID == "" {
		return nil
	}
	yes := true
	return &metav1.OwnerReference{APIVersion: v1alpha1.GroupVersion.String(), Kind: c.Kind, Name: c.Ref.Name,
		UID: c.UID, Controller: &yes, BlockOwnerDeletion: &yes}
}

// ServingPlacement says which node groups' volumes each namespace needs.
type ServingPlacement map[string][]string

// User is an InferenceService that uses a cache: its namespace and the node
// group it asked for (annotation serving.kserve.io/nodegroup; empty for the
// default).
type User struct {
	Namespace string
	NodeGroup string
}

// PlaceServing decides, as KServe does, which node groups each namespace
// needs: the node group a user names when the cache has it, else the
// cache's first (default) node group. A user naming a node group the cache
// does not have gets none. Groups are listed in spec order.
func PlaceServing(groups []string, users []User) ServingPlacement {
	if len(groups) == 0 {
		return ServingPlacement{}
	}
	want := map[string]map[string]bool{}
	for _, u := range users {
		g := u.NodeGroup
		if g == "" {
			g = groups[0]
		} else if !contains(groups, g) {
			continue
		}
		if want[u.Namespace] == nil {
			want[u.Namespace] = map[string]bool{}
		}
		want[u.Namespace][g] = true
	}
	out := ServingPlacement{}
	for ns, set := range want {
		for _, g := range groups {
			if set[g] {
				out[ns] = append(out[ns], g)
			}
		}
	}
	return out
}

// Has reports whether namespace needs the volume of group.
func (p ServingPlacement) Has(namespace, group string) bool {
	return contains(p[namespace], group)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
