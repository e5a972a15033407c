package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
)

// LocalModelCache keeps a copy of a model on the local disks of the nodes of
// its node groups, so InferenceServices whose storage URI matches start
// without downloading it. Usable from every namespace. Its lifecycle is an
// explicit state machine whose current state is status.lifecycle.state.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=localmodelcaches,singular=localmodelcache,scope=Cluster
// +kubebuilder:printcolumn:name="Available",type="integer",JSONPath=".status.copies.available"
// +kubebuilder:printcolumn:name="Total",type="integer",JSONPath=".status.copies.total"
// +kubebuilder:printcolumn:name="State",type="string",JSONPath=".status.lifecycle.state"
// +kubebuilder:printcolumn:name="URI",type="string",JSONPath=".spec.sourceModelUri",priority=1
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type LocalModelCache struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LocalModelCacheSpec   `json:"spec,omitempty"`
	Status LocalModelCacheStatus `json:"status,omitempty"`
}

// LocalModelCacheList is a list of LocalModelCaches.
//
// +kubebuilder:object:root=true
type LocalModelCacheList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LocalModelCache `json:"items"`
}

// LocalModelCacheSpec is the model to cache and where.
type LocalModelCacheSpec struct {
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

// LocalModelStorageSpec selects download credentials and settings.
type LocalModelStorageSpec struct {
	// StorageKey is the key of the storage-config secret to use.
	// +optional
	StorageKey *string `json:"key,omitempty"`
	// Parameters override the store's credentials and settings.
	// +optional
	Parameters *map[string]string `json:"parameters,omitempty"`
}

// LocalModelCacheStatus is the observed state of a cache.
type LocalModelCacheStatus struct {
	// Status holds observedGeneration, conditions (fsmserve) and annotations.
	common.Status `json:",inline"`
	// NodeStatus is the state of the model on each node, by node name.
	NodeStatus map[string]NodeStatus `json:"nodeStatus,omitempty"`
	// ModelCopies counts the nodes that have the model.
	// +optional
	ModelCopies *ModelCopies `json:"copies,omitempty"`
	// InferenceServices that use the cache.
	InferenceServices []NamespacedName `json:"inferenceServices,omitempty"`
	// LLMInferenceServices that use the cache.
	LLMInferenceServices []NamespacedName `json:"llmInferenceServices,omitempty"`
	// Lifecycle is the state of the cache's state machine (fsmserve).
	// +optional
	Lifecycle *common.Lifecycle `json:"lifecycle,omitempty"`
}

// NamespacedName identifies a namespaced object.
type NamespacedName struct {
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
}

// NodeStatus is the state of a cached model on one node.
// +kubebuilder:validation:Enum="";NodeNotReady;NodeDownloadPending;NodeDownloading;NodeDownloaded;NodeDownloadError
type NodeStatus string

// The node statuses.
const (
	NodeNotReady        NodeStatus = "NodeNotReady"
	NodeDownloadPending NodeStatus = "NodeDownloadPending"
	NodeDownloading     NodeStatus = "NodeDownloading"
	NodeDownloaded      NodeStatus = "NodeDownloaded"
	NodeDownloadError   NodeStatus = "NodeDownloadError"
)

// ModelCopies counts the nodes of a cache by outcome.
type ModelCopies struct {
	// Available is the number of nodes that have the model.
	Available int `json:"available,omitempty"`
	// Total is the number of nodes that should have it, ready or not.
	Total int `json:"total,omitempty"`
	// Failed is the number of nodes whose download failed.
	Failed int `json:"failed,omitempty"`
}

func init() {
	SchemeBuilder.Register(&LocalModelCache{}, &LocalModelCacheList{})
}
