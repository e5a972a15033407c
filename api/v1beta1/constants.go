package v1beta1

// InferenceServiceProtocol is an inference protocol a predictor speaks.
type InferenceServiceProtocol string

// The inference protocols.
const (
	ProtocolV1     InferenceServiceProtocol = "v1"
	ProtocolV2     InferenceServiceProtocol = "v2"
	ProtocolGRPCV1 InferenceServiceProtocol = "grpc-v1"
	ProtocolGRPCV2 InferenceServiceProtocol = "grpc-v2"
)

// DeploymentMode is how an InferenceService is deployed.
type DeploymentMode string

// The deployment modes, with KServe's legacy spellings.
const (
	// Standard deploys Deployments, Services, HPAs and Ingress or HTTPRoutes.
	Standard DeploymentMode = "Standard"
	// Knative deploys Knative Services.
	Knative DeploymentMode = "Knative"
	// ModelMesh hands the model to ModelMesh.
	ModelMesh DeploymentMode = "ModelMesh"
	// LegacyRawDeployment is the old name of Standard.
	LegacyRawDeployment DeploymentMode = "RawDeployment"
	// LegacyServerless is the old name of Knative.
	LegacyServerless DeploymentMode = "Serverless"
)

// AutoscalerClass is the autoscaler of a Standard-mode component.
type AutoscalerClass string

// The autoscaler classes (annotation serving.kserve.io/autoscalerClass).
const (
	AutoscalerClassHPA      AutoscalerClass = "hpa"
	AutoscalerClassKeda     AutoscalerClass = "keda"
	AutoscalerClassExternal AutoscalerClass = "external"
	AutoscalerClassNone     AutoscalerClass = "none"
)

// Names of containers KServe recognises.
const (
	// PredictorContainerName is the serving container of a predictor.
	PredictorContainerName = "kserve-container"
	// TransformerContainerName is the transformer container collocated in a predictor pod.
	TransformerContainerName = "transformer-container"
	// WorkerContainerName is the container of a multi-node worker.
	WorkerContainerName = "worker-container"
	// StorageInitializerContainerName is the init container that downloads models.
	StorageInitializerContainerName = "storage-initializer"
	// DefaultModelMountPath is where the storage initializer puts the model.
	DefaultModelMountPath = "/mnt/models"
	// StorageURIEnvVar in a custom kserve-container asks for a model download.
	StorageURIEnvVar = "STORAGE_URI"
	// ProtocolEnvVar in a custom container names its protocol.
	ProtocolEnvVar = "PROTOCOL"
)

// Annotations users set on an InferenceService (KServe's keys).
const (
	DeploymentModeAnnotation              = "serving.kserve.io/deploymentMode"
	AutoscalerClassAnnotation             = "serving.kserve.io/autoscalerClass"
	StopAnnotation                        = "serving.kserve.io/stop"
	DisableAutoUpdateAnnotation           = "serving.kserve.io/disable-auto-update"
	EnableTagRoutingAnnotation            = "serving.kserve.io/enable-tag-routing"
	GKEAcceleratorAnnotation              = "serving.kserve.io/gke-accelerator"
	GPUResourceTypesAnnotation            = "serving.kserve.io/gpu-resource-types"
	StorageInitializerUIDAnnotation       = "serving.kserve.io/storage-initializer-uid"
	StorageSecretNameAnnotation           = "serving.kserve.io/storageSecretName"
	StorageReadonlyAnnotation             = "storage.kserve.io/readonly"
	EnableMetricAggregationAnnotation     = "serving.kserve.io/enable-metric-aggregation"
	EnablePrometheusScrapingAnnotation    = "serving.kserve.io/enable-prometheus-scraping"
	PrometheusPortAnnotation              = "prometheus.kserve.io/port"
	PrometheusPathAnnotation              = "prometheus.kserve.io/path"
	LoggerSecretNameAnnotation            = "serving.kserve.io/logger-secret-name"
	LoggerSecretPathAnnotation            = "serving.kserve.io/logger-secret-path"
	LoggerSecretFileAnnotation            = "serving.kserve.io/logger-secret-file"
	DisableLocalModelAnnotation           = "serving.kserve.io/disable-localmodel"
	NodeGroupAnnotation                   = "serving.kserve.io/nodegroup"
	ModelFormatAnnotation                 = "modelFormat"
	LegacyMetricsAnnotation               = "serving.kserve.io/metrics"
	LegacyTargetUtilizationAnnotation     = "serving.kserve.io/targetUtilizationPercentage"
	KnativeRolloutDurationAnnotation      = "serving.knative.dev/rollout-duration"
	KnativeAutoscalingClassAnnotation     = "autoscaling.knative.dev/class"
	KnativeAutoscalingTargetAnnotation    = "autoscaling.knative.dev/target"
	KnativeAutoscalingMetricAnnotation    = "autoscaling.knative.dev/metric"
	KnativeMinScaleAnnotation             = "autoscaling.knative.dev/min-scale"
	KnativeMaxScaleAnnotation             = "autoscaling.knative.dev/max-scale"
	KnativeInitialScaleAnnotation         = "autoscaling.knative.dev/initial-scale"
	OpenTelemetrySidecarInjectAnnotation  = "sidecar.opentelemetry.io/inject"
	KnativeOpenshiftPassthroughAnnotation = "serving.knative.openshift.io/enablePassthrough"
)

// Labels KServe sets or reads.
const (
	// InferenceServiceLabel on pods and children names their InferenceService.
	InferenceServiceLabel = "serving.kserve.io/inferenceservice"
	// ComponentLabel on pods and children names the component.
	ComponentLabel = "component"
	// AppLabel selects a Standard-mode component's pods: isvc.{deployment}.
	AppLabel = "app"
	// GenerationLabel on multi-node pods is the InferenceService generation.
	GenerationLabel = "isvc.generation"
	// MultiNodeRoleLabel on multi-node headless Services: head or worker.
	MultiNodeRoleLabel = "multinode/role"
	// VisibilityLabel set to cluster-local keeps a Standard-mode service internal.
	VisibilityLabel = "networking.kserve.io/visibility"
	// KnativeVisibilityLabel set to cluster-local keeps a Knative service internal.
	KnativeVisibilityLabel = "networking.knative.dev/visibility"
	// VisibilityClusterLocal is the value of the visibility labels for internal services.
	VisibilityClusterLocal = "cluster-local"
)

// Annotations and labels KServe's controllers write for its pod mutator and
// agent; users do not set them.
const (
	InternalAnnotationPrefix                    = "internal.serving.kserve.io"
	StorageInitializerSourceURIAnnotation       = "internal.serving.kserve.io/storage-initializer-sourceuri"
	StorageSpecAnnotation                       = "internal.serving.kserve.io/storage-spec"
	StorageSpecParamAnnotation                  = "internal.serving.kserve.io/storage-spec-param"
	StorageSpecKeyAnnotation                    = "internal.serving.kserve.io/storage-spec-key"
	StorageContainerNameAnnotation              = "internal.serving.kserve.io/storage-container-name"
	LoggerInternalAnnotation                    = "internal.serving.kserve.io/logger"
	LoggerSinkURLInternalAnnotation             = "internal.serving.kserve.io/logger-sink-url"
	LoggerModeInternalAnnotation                = "internal.serving.kserve.io/logger-mode"
	LoggerMetadataHeadersInternalAnnotation     = "internal.serving.kserve.io/logger-metadata-headers"
	LoggerMetadataAnnotationsInternalAnnotation = "internal.serving.kserve.io/logger-metadata-annotations"
	BatcherInternalAnnotation                   = "internal.serving.kserve.io/batcher"
	BatcherMaxBatchSizeInternalAnnotation       = "internal.serving.kserve.io/batcher-max-batchsize"
	BatcherMaxLatencyInternalAnnotation         = "internal.serving.kserve.io/batcher-max-latency"
	AgentInternalAnnotation                     = "internal.serving.kserve.io/agent"
	AgentConfigVolumeNameInternalAnnotation     = "internal.serving.kserve.io/configVolumeName"
	AgentConfigMountPathInternalAnnotation      = "internal.serving.kserve.io/configMountPath"
	AgentModelDirInternalAnnotation             = "internal.serving.kserve.io/modelDir"
	PredictorHostInternalAnnotation             = "internal.serving.kserve.io/predictor-host"
	PredictorProtocolInternalAnnotation         = "internal.serving.kserve.io/predictor-protocol"
	LocalModelLabel                             = "internal.serving.kserve.io/localmodel"
	LocalModelNamespaceLabel                    = "internal.serving.kserve.io/localmodel-namespace"
	LocalModelSourceURIInternalAnnotation       = "internal.serving.kserve.io/localmodel-sourceuri"
	LocalModelPVCNameInternalAnnotation         = "internal.serving.kserve.io/localmodel-pvc-name"
	ConfidentialEnabledInternalAnnotation       = "internal.serving.kserve.io/confidential-enabled"
	ConfidentialResourceIDInternalAnnotation    = "internal.serving.kserve.io/confidential-resource-id"
	ModelCriticalityInternalAnnotation          = "internal.serving.kserve.io/model-criticality"
)

// Annotations on storage credentials that the storage initializer's
// environment is built from.
const (
	S3EndpointAnnotation          = "serving.kserve.io/s3-endpoint"
	S3RegionAnnotation            = "serving.kserve.io/s3-region"
	S3UseHTTPSAnnotation          = "serving.kserve.io/s3-usehttps"
	S3VerifySSLAnnotation         = "serving.kserve.io/s3-verifyssl"
	S3UseVirtualBucketAnnotation  = "serving.kserve.io/s3-usevirtualbucket"
	S3UseAccelerateAnnotation     = "serving.kserve.io/s3-useaccelerate"
	S3UseAnonCredentialAnnotation = "serving.kserve.io/s3-useanoncredential"
	S3CABundleAnnotation          = "serving.kserve.io/s3-cabundle"
	S3CABundleConfigMapAnnotation = "serving.kserve.io/s3-cabundle-configmap"
	AWSRoleARNAnnotation          = "eks.amazonaws.com/role-arn"
)
