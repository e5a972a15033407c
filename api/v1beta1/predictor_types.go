package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
)

// PredictorSpec configures the component that serves the model. Exactly one
// implementation is set: a framework shorthand (sklearn, xgboost, ...), model,
// or custom containers.
type PredictorSpec struct {
	// Name distinguishes predictor variants. When set, the Deployment and
	// Service are named {isvc}-{name}-predictor instead of {isvc}-predictor.
	// Canary entries must set it.
	// +optional
	// +kubebuilder:validation:Pattern="^[a-z]([-a-z0-9]*[a-z0-9])?$"
	Name string `json:"name,omitempty"`

	// SKLearn serves a scikit-learn model; shorthand for model.modelFormat.name=sklearn.
	SKLearn *SKLearnSpec `json:"sklearn,omitempty"`
	// XGBoost serves an XGBoost model.
	XGBoost *XGBoostSpec `json:"xgboost,omitempty"`
	// Tensorflow serves a TensorFlow SavedModel with TF Serving.
	Tensorflow *TFServingSpec `json:"tensorflow,omitempty"`
	// PyTorch serves a model archive with TorchServe.
	PyTorch *TorchServeSpec `json:"pytorch,omitempty"`
	// Triton serves a model repository with Triton Inference Server.
	Triton *TritonSpec `json:"triton,omitempty"`
	// ONNX serves an ONNX model.
	ONNX *ONNXRuntimeSpec `json:"onnx,omitempty"`
	// HuggingFace serves a Hugging Face model with KServe's huggingface server.
	HuggingFace *HuggingFaceRuntimeSpec `json:"huggingface,omitempty"`
	// PMML serves a PMML model.
	PMML *PMMLSpec `json:"pmml,omitempty"`
	// LightGBM serves a LightGBM model.
	LightGBM *LightGBMSpec `json:"lightgbm,omitempty"`
	// Paddle serves a PaddlePaddle model.
	Paddle *PaddleServerSpec `json:"paddle,omitempty"`

	// Model serves a model of any format with a runtime chosen by format
	// (or named explicitly).
	Model *ModelSpec `json:"model,omitempty"`

	// StorageUris downloads several artifacts, each to its own mount path.
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	StorageUris []StorageUri `json:"storageUris,omitempty"`

	// StorageContainerName picks the ClusterStorageContainer that downloads
	// the model, instead of matching one by URI.
	// +optional
	StorageContainerName *string `json:"storageContainerName,omitempty"`

	// WorkerSpec turns the predictor into a multi-node deployment: a head
	// and pipelineParallelSize-1 workers.
	WorkerSpec *WorkerSpec `json:"workerSpec,omitempty"`

	// PodSpec holds pod-level overrides, or, for a custom predictor, the
	// containers themselves. Only a custom predictor may name a container
	// kserve-container.
	PodSpec `json:",inline"`
	// ComponentExtensionSpec holds the scaling, logging and rollout settings.
	ComponentExtensionSpec `json:",inline"`
}

// StorageUri is one model artifact and where it is mounted.
type StorageUri struct {
	// Uri is where the artifact is downloaded from.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MinLength=1
	Uri string `json:"uri"`

	// MountPath is where the artifact appears in the container.
	// +kubebuilder:validation:Optional
	// +kubebuilder:default="/mnt/models"
	// +kubebuilder:validation:Pattern="^/.*"
	// +kubebuilder:validation:MaxLength=255
	// +optional
	MountPath string `json:"mountPath,omitempty"`
}

// WorkerSpec is the pod of a multi-node predictor's workers.
type WorkerSpec struct {
	PodSpec `json:",inline"`

	// PipelineParallelSize is the number of nodes of one model replica (head
	// included); it is also the size of the worker set that scales as a unit.
	// +optional
	PipelineParallelSize *int `json:"pipelineParallelSize,omitempty"`

	// TensorParallelSize is the number of GPUs used on each node.
	// +optional
	TensorParallelSize *int `json:"tensorParallelSize,omitempty"`
}

// PredictorExtensionSpec is what every framework shorthand and model share:
// where the model is, which runtime version and protocol, and overrides of
// the serving container.
type PredictorExtensionSpec struct {
	// StorageURI is where the model is downloaded from.
	// +optional
	StorageURI *string `json:"storageUri,omitempty"`
	// RuntimeVersion overrides the runtime image tag.
	// +optional
	RuntimeVersion *string `json:"runtimeVersion,omitempty"`
	// ProtocolVersion is the inference protocol: v1, v2, grpc-v1 or grpc-v2.
	// +optional
	ProtocolVersion *InferenceServiceProtocol `json:"protocolVersion,omitempty"`
	// Container overrides fields of the runtime's serving container.
	// +optional
	corev1.Container `json:",inline"`
	// Storage locates the model through the storage-config secret instead of a URI.
	// +optional
	Storage *ModelStorageSpec `json:"storage,omitempty"`
	// Confidential serves encrypted model artifacts, decrypted with a key
	// released by a Key Broker Service after TEE attestation.
	// +optional
	Confidential *ConfidentialSpec `json:"confidential,omitempty"`
}

// ModelStorageSpec locates a model in an object store known to the
// storage-config secret.
type ModelStorageSpec struct {
	StorageSpec `json:",inline"`
	// SchemaPath is the path of the model's schema file in the storage.
	// +optional
	SchemaPath *string `json:"schemaPath,omitempty"`
}

// ConfidentialSpec turns on confidential model serving.
type ConfidentialSpec struct {
	// Enabled selects the confidential storage initializer, which decrypts
	// the downloaded artifacts.
	Enabled bool `json:"enabled"`
	// ResourceId is the Key Broker Service resource of the decryption key,
	// written kbs:///<repo>/<type>/<tag>.
	// +optional
	ResourceId *string `json:"resourceId,omitempty"`
}

// ModelFormat names the format of a model and, optionally, its version.
type ModelFormat struct {
	// Name of the format, e.g. sklearn, onnx, huggingface.
	// +required
	Name string `json:"name"`
	// Version of the format: "major", "major.minor" or "major.minor.patch".
	// It must match a version a runtime declares.
	// +optional
	Version *string `json:"version,omitempty"`
}

// ModelSpec serves a model of any format.
type ModelSpec struct {
	// ModelFormat selects runtimes that declare support for it.
	// +required
	ModelFormat ModelFormat `json:"modelFormat"`
	// Runtime names the ServingRuntime or ClusterServingRuntime to use,
	// bypassing automatic selection.
	// +optional
	Runtime *string `json:"runtime,omitempty"`

	PredictorExtensionSpec `json:",inline"`
}

// SKLearnSpec is the sklearn shorthand.
type SKLearnSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// XGBoostSpec is the xgboost shorthand.
type XGBoostSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// TFServingSpec is the tensorflow shorthand.
type TFServingSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// TorchServeSpec is the pytorch shorthand.
type TorchServeSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// TritonSpec is the triton shorthand.
type TritonSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// ONNXRuntimeSpec is the onnx shorthand.
type ONNXRuntimeSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// HuggingFaceRuntimeSpec is the huggingface shorthand.
type HuggingFaceRuntimeSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// PMMLSpec is the pmml shorthand.
type PMMLSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// LightGBMSpec is the lightgbm shorthand.
type LightGBMSpec struct {
	PredictorExtensionSpec `json:",inline"`
}

// PaddleServerSpec is the paddle shorthand.
type PaddleServerSpec struct {
	PredictorExtensionSpec `json:",inline"`
}
