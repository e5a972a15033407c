package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
)

// LocalModelNode lists the models one node should hold; it is named after
// the node, and the node's agent reports each model's state.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=localmodelnodes,singular=localmodelnode,scope=Cluster
// +kubebuilder:printcolumn:name="Models",type="string",JSONPath=".status.modelStatus"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type LocalModelNode struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LocalModelNodeSpec   `json:"spec,omitempty"`
	Status LocalModelNodeStatus `json:"status,omitempty"`
}

// LocalModelNodeList is a list of LocalModelNodes.
//
// +kubebuilder:object:root=true
type LocalModelNodeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LocalModelNode `json:"items"`
}

// LocalModelNodeSpec is the models a node should hold.
type LocalModelNodeSpec struct {
	// LocalModels to download to the node.
	LocalModels []LocalModelInfo `json:"localModels"`
}

// LocalModelInfo is one model a node should hold.
type LocalModelInfo struct {
	// SourceModelUri is where the model is downloaded from.
	SourceModelUri string `json:"sourceModelUri"`
	// ModelName is the cache's name.
	ModelName string `json:"modelName"`
	// Namespace of a LocalModelNamespaceCache; empty for a LocalModelCache.
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// NodeGroup the model is cached for; it names the download PVC.
	// +optional
	NodeGroup string `json:"nodeGroup,omitempty"`
	// ServiceAccountName whose secrets hold the download credentials.
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// Storage selects download credentials from the storage-config secret.
	// +optional
	Storage *LocalModelStorageSpec `json:"storage,omitempty"`
}

// LocalModelNodeStatus is the state of each model on the node, keyed like
// GetStatusKey: the model name, or namespace/name for namespace caches.
type LocalModelNodeStatus struct {
	// Status holds observedGeneration, conditions (fsmserve) and annotations.
	common.Status `json:",inline"`
	// ModelStatus is the download state of each model.
	ModelStatus map[string]ModelStatus `json:"modelStatus,omitempty"`
	// Lifecycles is the state of each model's download state machine
	// (fsmserve), keyed like modelStatus.
	// +optional
	Lifecycles map[string]common.Lifecycle `json:"lifecycles,omitempty"`
}

// ModelStatus is the download state of a model on a node.
// +kubebuilder:validation:Enum="";ModelDownloadPending;ModelDownloading;ModelDownloaded;ModelDownloadError
type ModelStatus string

// The model download states.
const (
	ModelDownloadPending ModelStatus = "ModelDownloadPending"
	ModelDownloading     ModelStatus = "ModelDownloading"
	ModelDownloaded      ModelStatus = "ModelDownloaded"
	ModelDownloadError   ModelStatus = "ModelDownloadError"
)

func init() {
	SchemeBuilder.Register(&LocalModelNode{}, &LocalModelNodeList{})
}
