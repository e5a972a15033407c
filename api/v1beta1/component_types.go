package v1beta1

import (
	appsv1 "k8s.io/api/apps/v1"
)

// ComponentType names a component of an InferenceService; it keys
// status.components.
type ComponentType string

// The components of an InferenceService.
const (
	PredictorComponent   ComponentType = "predictor"
	ExplainerComponent   ComponentType = "explainer"
	TransformerComponent ComponentType = "transformer"
)

// ComponentExtensionSpec is the deployment configuration every component
// (predictor, transformer, explainer) shares.
type ComponentExtensionSpec struct {
	// MinReplicas is the fewest replicas; it defaults to 1, and 0 allows
	// scale to zero where the autoscaler supports it.
	// +optional
	MinReplicas *int32 `json:"minReplicas,omitempty"`
	// MaxReplicas is the most replicas the autoscaler may create; 0 means no limit.
	// +optional
	MaxReplicas int32 `json:"maxReplicas,omitempty"`
	// ScaleTarget is the target value of scaleMetric: a percentage for
	// cpu/memory utilization, requests for concurrency and rps.
	// +optional
	ScaleTarget *int32 `json:"scaleTarget,omitempty"`
	// ScaleMetric is the metric the autoscaler watches: cpu, memory,
	// concurrency or rps (the last two with Knative's autoscaler).
	// +optional
	ScaleMetric *ScaleMetric `json:"scaleMetric,omitempty"`
	// ScaleMetricType says how scaleTarget is read: Utilization, Value or AverageValue.
	// +optional
	ScaleMetricType *MetricTargetType `json:"scaleMetricType,omitempty"`
	// AutoScaling lists metrics for HPA or KEDA and the scaling behavior.
	// +optional
	AutoScaling *AutoScalingSpec `json:"autoScaling,omitempty"`
	// ContainerConcurrency is the hard limit of requests one replica serves at once (Knative).
	// +optional
	ContainerConcurrency *int64 `json:"containerConcurrency,omitempty"`
	// TimeoutSeconds is how long a request to the component may take.
	// +optional
	TimeoutSeconds *int64 `json:"timeout,omitempty"`
	// CanaryTrafficPercent splits traffic between the newest revision and the
	// last one rolled out (Knative mode).
	// +optional
	CanaryTrafficPercent *int64 `json:"canaryTrafficPercent,omitempty"`
	// Logger sends requests and responses to a sink as CloudEvents.
	// +optional
	Logger *LoggerSpec `json:"logger,omitempty"`
	// Batcher groups requests into batches before they reach the model.
	// +optional
	Batcher *Batcher `json:"batcher,omitempty"`
	// Labels are added to the component's pods.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations are added to the component's pods.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// DeploymentStrategy replaces old pods with new ones (Standard mode only).
	// +optional
	DeploymentStrategy *appsv1.DeploymentStrategy `json:"deploymentStrategy,omitempty"`
}

// StorageSpec locates an object in a store described by the storage-config secret.
type StorageSpec struct {
	// Path of the object, relative to the store's root.
	// +optional
	Path *string `json:"path,omitempty"`
	// Parameters override the store's credentials and settings.
	// +optional
	Parameters *map[string]string `json:"parameters,omitempty"`
	// StorageKey is the key of the storage-config secret that describes the store.
	// +optional
	StorageKey *string `json:"key,omitempty"`
}

// LoggerStorageSpec is where the logger writes payloads in blob storage.
type LoggerStorageSpec struct {
	StorageSpec `json:",inline"`
	// ServiceAccountName whose credentials the logger uses.
	ServiceAccountName *string `json:"serviceAccountName,omitempty"`
}

// LoggerType selects which payloads the logger sends.
// +kubebuilder:validation:Enum=all;request;response
type LoggerType string

// The logger modes.
const (
	LogAll      LoggerType = "all"
	LogRequest  LoggerType = "request"
	LogResponse LoggerType = "response"
)

// LoggerSpec configures payload logging.
type LoggerSpec struct {
	// URL of the sink that receives the CloudEvents.
	// +optional
	URL *string `json:"url,omitempty"`
	// Mode is all (the default), request or response.
	// +optional
	Mode LoggerType `json:"mode,omitempty"`
	// MetadataHeaders are request headers copied into the events.
	// +optional
	MetadataHeaders []string `json:"metadataHeaders,omitempty"`
	// MetadataAnnotations are InferenceService annotations copied into the events.
	// +optional
	MetadataAnnotations []string `json:"metadataAnnotations,omitempty"`
	// Storage writes the events to blob storage instead of a URL.
	// +optional
	Storage *LoggerStorageSpec `json:"storage,omitempty"`
	// MarshallerURL is the service that shapes log records before storage;
	// the agent's built-in JSON marshaller when unset.
	// +optional
	MarshallerURL *string `json:"marshallerUrl,omitempty"`
	// BatchSize is the number of records written together to blob storage (default 1).
	// +optional
	BatchSize *int `json:"batchSize,omitempty"`
	// BatchInterval flushes a partial batch after this duration, e.g. "5s";
	// only with batchSize > 1.
	// +optional
	BatchInterval *string `json:"batchInterval,omitempty"`
}

// Batcher configures request batching.
type Batcher struct {
	// MaxBatchSize is the number of requests that triggers a batch.
	// +optional
	MaxBatchSize *int `json:"maxBatchSize,omitempty"`
	// MaxLatency is the time in milliseconds after which a partial batch is sent.
	// +optional
	MaxLatency *int `json:"maxLatency,omitempty"`
	// Timeout of a batch in seconds.
	// +optional
	Timeout *int `json:"timeout,omitempty"`
}
