package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LocalModelNodeGroup is a set of nodes that share a local-disk layout for
// cached models: the PersistentVolume template's node affinity selects them.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=localmodelnodegroups,singular=localmodelnodegroup,scope=Cluster
// +kubebuilder:printcolumn:name="StorageLimit",type="string",JSONPath=".spec.storageLimit"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type LocalModelNodeGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LocalModelNodeGroupSpec   `json:"spec,omitempty"`
	Status LocalModelNodeGroupStatus `json:"status,omitempty"`
}

// LocalModelNodeGroupList is a list of LocalModelNodeGroups.
//
// +kubebuilder:object:root=true
type LocalModelNodeGroupList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LocalModelNodeGroup `json:"items"`
}

// LocalModelNodeGroupSpec is the disk budget and volume templates of a group.
type LocalModelNodeGroupSpec struct {
	// StorageLimit is the disk space for models on each node of the group.
	StorageLimit resource.Quantity `json:"storageLimit"`
	// PersistentVolumeSpec is the template of the PersistentVolumes created
	// for downloads and for each namespace that uses the cache; its required
	// node affinity defines the group's nodes.
	PersistentVolumeSpec corev1.PersistentVolumeSpec `json:"persistentVolumeSpec"`
	// PersistentVolumeClaimSpec is the template of the matching claims.
	PersistentVolumeClaimSpec corev1.PersistentVolumeClaimSpec `json:"persistentVolumeClaimSpec"`
}

// LocalModelNodeGroupStatus is declared by KServe and never written. The
// quantities are pointers so that an unset status is not written as zeros.
type LocalModelNodeGroupStatus struct {
	// Used disk space on a node of the group.
	Used *resource.Quantity `json:"used,omitempty"`
	// Available disk space on a node of the group.
	Available *resource.Quantity `json:"available,omitempty"`
}

func init() {
	SchemeBuilder.Register(&LocalModelNodeGroup{}, &LocalModelNodeGroupList{})
}
