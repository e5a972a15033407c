package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ClusterStorageContainer is a container that downloads models for the URIs
// it supports: the storage initializer, or the LocalModel download job.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=clusterstoragecontainers,singular=clusterstoragecontainer,scope=Cluster
type ClusterStorageContainer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec StorageContainerSpec `json:"spec,omitempty"`
	// Disabled takes the container out of use. It sits beside spec, as in KServe.
	// +optional
	Disabled *bool `json:"disabled,omitempty"`
}

// ClusterStorageContainerList is a list of ClusterStorageContainers.
//
// +kubebuilder:object:root=true
type ClusterStorageContainerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterStorageContainer `json:"items"`
}

// StorageContainerSpec is the download container and the URIs it handles.
type StorageContainerSpec struct {
	// Container that downloads the model.
	Container corev1.Container `json:"container"`
	// SupportedUriFormats are the URIs the container downloads.
	SupportedUriFormats []SupportedUriFormat `json:"supportedUriFormats"`
	// WorkloadType is where the container runs: initContainer (the default)
	// or localModelDownloadJob.
	// +kubebuilder:default="initContainer"
	WorkloadType WorkloadType `json:"workloadType,omitempty"`
	// SupportsMultiModelDownload says the container can download several
	// URIs (storageUris) in one run.
	// +kubebuilder:default=false
	SupportsMultiModelDownload *bool `json:"supportsMultiModelDownload,omitempty"`
}

// SupportedUriFormat matches URIs by prefix or by regular expression; one
// of the two is set.
type SupportedUriFormat struct {
	// Prefix a URI starts with, e.g. s3://.
	Prefix string `json:"prefix,omitempty"`
	// Regex a URI matches.
	Regex string `json:"regex,omitempty"`
}

// WorkloadType is where a storage container runs.
type WorkloadType string

// The workload types.
const (
	InitContainer         WorkloadType = "initContainer"
	LocalModelDownloadJob WorkloadType = "localModelDownloadJob"
)

func init() {
	SchemeBuilder.Register(&ClusterStorageContainer{}, &ClusterStorageContainerList{})
}
