// Package config is the typed form of KServe's `inferenceservice-config`
// ConfigMap, plus the manifests fsmserve installs by default (ConfigMap,
// ClusterServingRuntimes, ClusterStorageContainer).
//
// Every data key of the ConfigMap holds one JSON document. The field names are
// KServe's, so a ConfigMap written for KServe works unchanged. Keys are parsed
// independently: a malformed key keeps its defaults and reports a KeyError,
// while the other keys still take effect. Parsing never panics, unlike some of
// KServe's parsers, because a bad ConfigMap must surface as a condition, not as
// a crashed webhook.
//
// Defaults follow one rule. When a key or field is absent we use KServe's code
// default where KServe's code has one that works; where KServe's code would fail
// or produce an unusable object (sidecar images, resource quantities, the local
// model job namespace), we use the value KServe ships in its ConfigMap. The one
// deliberate deviation: an absent `deploy` key means the Standard deployment
// mode, because that is the mode fsmserve ships and tests by default.
package config

import (
	"os"

	corev1 "k8s.io/api/core/v1"
)

const (
	// ConfigMapName is the name KServe gives its global configuration.
	ConfigMapName = "inferenceservice-config"
	// DefaultSystemNamespace is used when POD_NAMESPACE is not set, as in KServe.
	DefaultSystemNamespace = "kserve"
	// SystemNamespaceEnv is the environment variable (set through the downward
	// API) naming the namespace the control plane runs in.
	SystemNamespaceEnv = "POD_NAMESPACE"
)

// Data keys of the ConfigMap, spelled as KServe spells them.
const (
	KeyExplainers             = "explainers"
	KeyInferenceService       = "inferenceService"
	KeyMultiNode              = "multiNode"
	KeyStorageInitializer     = "storageInitializer"
	KeyCredentials            = "credentials"
	KeyIngress                = "ingress"
	KeyLogger                 = "logger"
	KeyBatcher                = "batcher"
	KeyAgent                  = "agent"
	KeyRouter                 = "router"
	KeyDeploy                 = "deploy"
	KeyService                = "service"
	KeyMetricsAggregator      = "metricsAggregator"
	KeyLocalModel             = "localModel"
	KeySecurity               = "security"
	KeyOpenTelemetryCollector = "opentelemetryCollector"
	KeyAutoscaler             = "autoscaler"
	// KeyExample holds documentation only; it is never parsed.
	KeyExample = "_example"
)

// KnownKeys lists every data key this package parses, in the order Parse
// visits them.
func KnownKeys() []string {
	keys := make([]string, len(keyParsers))
	for i, p := range keyParsers {
		keys[i] = p.key
	}
	return keys
}

// SystemNamespace is the namespace that holds the ConfigMap and the control
// plane: $POD_NAMESPACE, else "kserve".
func SystemNamespace() string {
	if ns := os.Getenv(SystemNamespaceEnv); ns != "" {
		return ns
	}
	return DefaultSystemNamespace
}

// Config is the whole ConfigMap, one field per data key.
type Config struct {
	Explainers             ExplainersConfig
	InferenceService       InferenceServiceConfig
	MultiNode              MultiNodeConfig
	StorageInitializer     StorageInitializerConfig
	Credentials            CredentialsConfig
	Ingress                IngressConfig
	Logger                 LoggerConfig
	Batcher                BatcherConfig
	Agent                  AgentConfig
	Router                 RouterConfig
	Deploy                 DeployConfig
	Service                ServiceConfig
	MetricsAggregator      MetricsAggregatorConfig
	LocalModel             LocalModelConfig
	Security               SecurityConfig
	OpenTelemetryCollector OpenTelemetryCollectorConfig
	Autoscaler             AutoscalerConfig
}

// Default is the configuration used when the ConfigMap is empty. Each call
// returns fresh slices and pointers, so callers may modify the result.
func Default() *Config {
	return &Config{
		Explainers:             defaultExplainers(),
		InferenceService:       defaultInferenceService(),
		MultiNode:              MultiNodeConfig{},
		StorageInitializer:     defaultStorageInitializer(),
		Credentials:            defaultCredentials(),
		Ingress:                defaultIngress(),
		Logger:                 defaultLogger(),
		Batcher:                defaultBatcher(),
		Agent:                  defaultAgent(),
		Router:                 defaultRouter(),
		Deploy:                 defaultDeploy(),
		Service:                ServiceConfig{},
		MetricsAggregator:      defaultMetricsAggregator(),
		LocalModel:             defaultLocalModel(),
		Security:               SecurityConfig{},
		OpenTelemetryCollector: defaultOpenTelemetryCollector(),
		Autoscaler:             AutoscalerConfig{},
	}
}

// FromConfigMap parses cm.Data. A nil ConfigMap yields the defaults and no
// errors; whether a missing ConfigMap is itself a problem is the caller's call.
func FromConfigMap(cm *corev1.ConfigMap) (*Config, *Errors) {
	if cm == nil {
		return Default(), nil
	}
	return Parse(cm.Data)
}
