package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LocalModelNamespaceCache is a LocalModelCache usable only from its own
// namespace; it takes precedence over cluster caches there.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=localmodelnamespacecaches,singular=localmodelnamespacecache,scope=Namespaced
// +kubebuilder:printcolumn:name="Available",type="integer",JSONPath=".status.copies.available"
// +kubebuilder:printcolumn:name="Total",type="integer",JSONPath=".status.copies.total"
// +kubebuilder:printcolumn:name="State",type="string",JSONPath=".status.lifecycle.state"
// +kubebuilder:printcolumn:name="URI",type="string",JSONPath=".spec.sourceModelUri",priority=1
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type LocalModelNamespaceCache struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LocalModelNamespaceCacheSpec `json:"spec,omitempty"`
	Status LocalModelCacheStatus        `json:"status,omitempty"`
}

// LocalModelNamespaceCacheList is a list of LocalModelNamespaceCaches.
//
// +kubebuilder:object:root=true
type LocalModelNamespaceCacheList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LocalModelNamespaceCache `json:"items"`
}

// LocalModelNamespaceCacheSpec is the spec of a LocalModelNamespaceCache,
// the same fields as a LocalModelCache's.
type LocalModelNamespaceCacheSpec struct {
	// SourceModelUri is where the model is downloaded from; it cannot change.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="StorageUri is immutable"
	SourceModelUri string `json:"sourceModelUri"`
	// ModelSize reserves disk space; it must fit the node group's storage limit.
	ModelSize resource.Quantity `json:"modelSize"`
	// NodeGroups to cache the model on; the first is the default.
	// +kubebuilder:validation:MinItems=1
	NodeGroups []string `json:"nodeGroups"`
	// ServiceAccountName whose secrets hold the download credentials.
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// Storage selects download credentials from the storage-config secret.
	// +optional
	Storage *LocalModelStorageSpec `json:"storage,omitempty"`
}

func init() {
	SchemeBuilder.Register(&LocalModelNamespaceCache{}, &LocalModelNamespaceCacheList{})
}
