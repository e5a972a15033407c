package pod

// Names of containers, volumes, paths, arguments and environment variables
// that KServe's pod mutator produces; tools and images built for KServe look
// them up by these names.
const (
	agentContainerName        = "agent"
	queueProxyContainerName   = "queue-proxy"
	istioInitContainerName    = "istio-init"
	modelcarContainerName     = "modelcar"
	modelcarInitContainerName = "modelcar-init"

	// provisionVolumeName is the emptyDir the storage initializer downloads into.
	provisionVolumeName = "kserve-provision-location"
	// pvcSourceVolumeName mounts a pvc:// model directly, without a download.
	pvcSourceVolumeName = "kserve-pvc-source"
	caBundleVolumeName  = "cabundle-cert"
	loggerCAVolumeName  = "agent-ca-bundle"
	modelDirVolumeName  = "model-dir"
	modelConfigVolume   = "model-config"

	loggerCAMountPath   = "/etc/tls/logger"
	agentModelConfigDir = "/mnt/configs"

	pvcScheme = "pvc://"
	ociScheme = "oci://"

	globalCABundleConfigMapName = "global-ca-bundle"
)

// Annotations and labels read from other systems (GKE, Istio, Knative).
const (
	gkeAcceleratorNodeSelector       = "cloud.google.com/gke-accelerator"
	nvidiaGPUResource                = "nvidia.com/gpu"
	istioInterceptionModeKey         = "sidecar.istio.io/interceptionMode"
	istioSidecarStatusKey            = "sidecar.istio.io/status"
	istioInterceptRedirect           = "REDIRECT"
	defaultIstioSidecarUID     int64 = 1337
	endpointLabel                    = "endpoint"
	prometheusPortAnnotation         = "prometheus.io/port"
	prometheusPathAnnotation         = "prometheus.io/path"
)

// Environment variables set on the injected and user containers.
const (
	envCABundleConfigMapName   = "CA_BUNDLE_CONFIGMAP_NAME"
	envCABundleMountPath       = "CA_BUNDLE_VOLUME_MOUNT_POINT"
	envAWSCABundle             = "AWS_CA_BUNDLE"
	envAWSCABundleConfigMap    = "AWS_CA_BUNDLE_CONFIGMAP"
	envConfidentialEnabled     = "CONFIDENTIAL_ENABLED"
	envConfidentialResourceID  = "CONFIDENTIAL_RESOURCE_ID"
	envModelInitMode           = "MODEL_INIT_MODE"
	envServingReadinessProbe   = "SERVING_READINESS_PROBE"
	envUserPort                = "USER_PORT"
	envPromMetricsPort         = "KSERVE_CONTAINER_PROMETHEUS_METRICS_PORT"
	envPromMetricsPath         = "KSERVE_CONTAINER_PROMETHEUS_METRICS_PATH"
	envAggregateMetricsPort    = "AGGREGATE_PROMETHEUS_METRICS_PORT"
	envOCIDockerConfig         = "KSERVE_OCI_DOCKER_CONFIG"
	envOCIInsecureRegistry     = "KSERVE_OCI_INSECURE_REGISTRY"
	ociFetchDockerConfigVolume = "kserve-oci-fetch-docker-config"
	ociFetchDockerConfigDir    = "/mnt/oci-fetch-auth"
)

// Ports of the agent and the metrics aggregation.
const (
	agentPort                 = 9081
	agentPortName             = "agent-port"
	defaultComponentPort      = "8080"
	aggregateMetricsPort      = 9088
	aggregateMetricsPortName  = "aggr-metric"
	defaultPodPrometheusPort  = "9091"
	defaultPrometheusPath     = "/metrics"
	defaultUserPrometheusPort = "8080"
)
