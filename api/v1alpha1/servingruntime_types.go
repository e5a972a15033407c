package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ServingRuntime is a model server template, usable by InferenceServices of
// its namespace: the containers that serve the model formats it lists.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=servingruntimes,singular=servingruntime,scope=Namespaced
// +kubebuilder:printcolumn:name="Disabled",type="boolean",JSONPath=".spec.disabled"
// +kubebuilder:printcolumn:name="ModelType",type="string",JSONPath=".spec.supportedModelFormats[*].name"
// +kubebuilder:printcolumn:name="Containers",type="string",JSONPath=".spec.containers[*].name"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ServingRuntime struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ServingRuntimeSpec   `json:"spec,omitempty"`
	Status ServingRuntimeStatus `json:"status,omitempty"`
}

// ServingRuntimeList is a list of ServingRuntimes.
//
// +kubebuilder:object:root=true
type ServingRuntimeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ServingRuntime `json:"items"`
}

// ClusterServingRuntime is a ServingRuntime usable from every namespace.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=clusterservingruntimes,singular=clusterservingruntime,scope=Cluster
// +kubebuilder:printcolumn:name="Disabled",type="boolean",JSONPath=".spec.disabled"
// +kubebuilder:printcolumn:name="ModelType",type="string",JSONPath=".spec.supportedModelFormats[*].name"
// +kubebuilder:printcolumn:name="Containers",type="string",JSONPath=".spec.containers[*].name"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ClusterServingRuntime struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ServingRuntimeSpec   `json:"spec,omitempty"`
	Status ServingRuntimeStatus `json:"status,omitempty"`
}

// ClusterServingRuntimeList is a list of ClusterServingRuntimes.
//
// +kubebuilder:object:root=true
type ClusterServingRuntimeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterServingRuntime `json:"items"`
}

// ServingRuntimeStatus is empty: runtimes are templates with no state.
type ServingRuntimeStatus struct{}

// ServingRuntimeSpec describes a model server.
type ServingRuntimeSpec struct {
	// SupportedModelFormats are the formats, and versions, the runtime serves.
	SupportedModelFormats []SupportedModelFormat `json:"supportedModelFormats,omitempty"`
	// MultiModel marks a runtime that loads many models (ModelMesh).
	// +optional
	MultiModel *bool `json:"multiModel,omitempty"`
	// Disabled takes the runtime out of use.
	// +optional
	Disabled *bool `json:"disabled,omitempty"`
	// ProtocolVersions the runtime speaks: v1, v2, grpc-v1, grpc-v2.
	// +optional
	ProtocolVersions []InferenceServiceProtocol `json:"protocolVersions,omitempty"`
	// WorkerSpec marks a multi-node runtime and describes its workers.
	// +optional
	WorkerSpec *WorkerSpec `json:"workerSpec,omitempty"`

	ServingRuntimePodSpec `json:",inline"`

	// GrpcMultiModelManagementEndpoint is the model-management endpoint of a
	// ModelMesh runtime, "port:1234" or "unix:/path"; absent for single-model runtimes.
	// +optional
	GrpcMultiModelManagementEndpoint *string `json:"grpcEndpoint,omitempty"`
	// GrpcDataEndpoint is the gRPC inference endpoint (ModelMesh).
	// +optional
	GrpcDataEndpoint *string `json:"grpcDataEndpoint,omitempty"`
	// HTTPDataEndpoint is the HTTP inference endpoint (ModelMesh).
	// +optional
	HTTPDataEndpoint *string `json:"httpDataEndpoint,omitempty"`
	// Replicas of the runtime's Deployment (ModelMesh).
	// +optional
	Replicas *uint16 `json:"replicas,omitempty"`
	// StorageHelper configures the model puller (ModelMesh).
	// +optional
	StorageHelper *StorageHelper `json:"storageHelper,omitempty"`
	// BuiltInAdapter configures the built-in runtime adapter (ModelMesh).
	// +optional
	BuiltInAdapter *BuiltInAdapter `json:"builtInAdapter,omitempty"`
}

// SupportedModelFormat is a model format a runtime serves.
type SupportedModelFormat struct {
	// Name of the format.
	// +required
	Name string `json:"name"`
	// Version of the format: "major", "major.minor" or "major.minor.patch".
	// +optional
	Version *string `json:"version,omitempty"`
	// AutoSelect lets the runtime be chosen for predictors that name this
	// format but no runtime.
	// +optional
	AutoSelect *bool `json:"autoSelect,omitempty"`
	// Priority orders auto-selectable runtimes for the same format, higher
	// first; it counts only with autoSelect.
	// +kubebuilder:validation:Minimum=1
	// +optional
	Priority *int32 `json:"priority,omitempty"`
}

// ServingRuntimePodSpec is the pod of a runtime.
type ServingRuntimePodSpec struct {
	// Containers of the runtime; the serving one is named kserve-container.
	// +patchMergeKey=name
	// +patchStrategy=merge
	Containers []corev1.Container `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
	// Volumes the containers can mount.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge,retainKeys
	Volumes []corev1.Volume `json:"volumes,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	// NodeSelector restricts the nodes the pods may run on.
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// Affinity constrains scheduling.
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// Tolerations of node taints.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// Labels added to the pods.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations added to the pods, e.g. prometheus.kserve.io/port.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// ImagePullSecrets used to pull the images.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// HostIPC uses the node's IPC namespace.
	// +optional
	HostIPC bool `json:"hostIPC,omitempty"`
	// SchedulerName of the scheduler that places the pods.
	// +optional
	SchedulerName string `json:"schedulerName,omitempty"`
	// ResourceClaims the pods need allocated before they start (DRA); the
	// claims or templates must exist in the namespace.
	// +patchMergeKey=name
	// +patchStrategy=merge,retainKeys
	// +listType=map
	// +listMapKey=name
	// +optional
	ResourceClaims []corev1.PodResourceClaim `json:"resourceClaims,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
}

// WorkerSpec is the pod of a multi-node runtime's workers.
type WorkerSpec struct {
	ServingRuntimePodSpec `json:",inline"`

	// PipelineParallelSize is the number of nodes of one model replica (head
	// included); it is also the size of the worker set that scales as a unit.
	// +optional
	PipelineParallelSize *int `json:"pipelineParallelSize,omitempty"`
	// TensorParallelSize is the number of GPUs used on each node.
	// +optional
	TensorParallelSize *int `json:"tensorParallelSize,omitempty"`
}

// StorageHelper configures the ModelMesh model puller.
type StorageHelper struct {
	// Disabled turns the puller off.
	// +optional
	Disabled bool `json:"disabled,omitempty"`
}

// ServerType is a model server ModelMesh has a built-in adapter for.
type ServerType string

// The built-in server types.
const (
	Triton   ServerType = "triton"
	MLServer ServerType = "mlserver"
	OVMS     ServerType = "ovms"
)

// BuiltInAdapter configures ModelMesh's built-in adapter for a runtime.
type BuiltInAdapter struct {
	// ServerType is triton, mlserver or ovms; the runtime's container has the same name.
	ServerType ServerType `json:"serverType,omitempty"`
	// RuntimeManagementPort is where the server listens for model management.
	RuntimeManagementPort int `json:"runtimeManagementPort,omitempty"`
	// MemBufferBytes is the memory kept back from model capacity.
	MemBufferBytes int `json:"memBufferBytes,omitempty"`
	// ModelLoadingTimeoutMillis bounds a model load.
	ModelLoadingTimeoutMillis int `json:"modelLoadingTimeoutMillis,omitempty"`
	// Env configures the adapter.
	Env []corev1.EnvVar `json:"env,omitempty"`
}

func init() {
	SchemeBuilder.Register(&ServingRuntime{}, &ServingRuntimeList{})
	SchemeBuilder.Register(&ClusterServingRuntime{}, &ClusterServingRuntimeList{})
}
