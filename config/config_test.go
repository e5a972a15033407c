package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestSystemNamespace(t *testing.T) {
	tests := []struct{ env, want string }{
		{"", "kserve"},
		{"fsmserve-system", "fsmserve-system"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Setenv("POD_NAMESPACE", tt.env)
			assert.Equal(t, tt.want, SystemNamespace())
		})
	}
	assert.Equal(t, "inferenceservice-config", ConfigMapName)
	assert.Equal(t, "kserve", DefaultSystemNamespace)
}

// defaultCase pins what consumers see for one key when it is absent.
type defaultCase struct {
	key   string
	check func(t *testing.T, c *Config)
}

var defaultCases = []defaultCase{
	{KeyExplainers, func(t *testing.T, c *Config) {
		assert.Equal(t, "kserve/art-explainer", c.Explainers.ART.ContainerImage)
		assert.Equal(t, "latest", c.Explainers.ART.DefaultImageVersion)
	}},
	{KeyInferenceService, func(t *testing.T, c *Config) {
		assert.Equal(t, builtinServiceAnnotationDisallowedList, c.InferenceService.ServiceAnnotationDisallowedList)
		assert.Equal(t, []string{"networking.knative.dev/visibility"}, c.InferenceService.ServiceLabelDisallowedList)
		assert.True(t, c.InferenceService.Resource.IsZero(), "KServe's code sets no component resources by default")
	}},
	{KeyMultiNode, func(t *testing.T, c *Config) {
		assert.Empty(t, c.MultiNode.CustomGPUResourceTypeList)
	}},
	{KeyStorageInitializer, func(t *testing.T, c *Config) {
		s := c.StorageInitializer
		assert.Equal(t, "kserve/storage-initializer:latest", s.Image)
		assert.Equal(t, []string{"100m", "1", "100Mi", "1Gi"}, []string{s.CPURequest, s.CPULimit, s.MemoryRequest, s.MemoryLimit})
		assert.Equal(t, "/etc/ssl/custom-certs", s.CABundleVolumeMountPath)
		assert.Equal(t, []string{"10m", "15Mi"}, []string{s.CPUModelcar, s.MemoryModelcar})
		assert.False(t, s.EnableModelcar)
		assert.Nil(t, s.UIDModelcar)
		assert.Equal(t, OCIDisabled, s.EffectiveOCIModelMode())
	}},
	{KeyCredentials, func(t *testing.T, c *Config) {
		assert.Equal(t, "storage-config", c.Credentials.StorageSpecSecretName)
		assert.Empty(t, c.Credentials.StorageSecretNameAnnotation)
		assert.Equal(t, "gcloud-application-credentials.json", c.Credentials.GCS.GCSCredentialFileName)
		assert.Equal(t, "awsAccessKeyID", c.Credentials.S3.S3AccessKeyIDName)
		assert.Equal(t, "awsSecretAccessKey", c.Credentials.S3.S3SecretAccessKeyName)
	}},
	{KeyIngress, func(t *testing.T, c *Config) {
		i := c.Ingress
		assert.Equal(t, "{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}", i.DomainTemplate)
		assert.Equal(t, "example.com", i.IngressDomain)
		assert.Equal(t, "http", i.URLScheme)
		assert.Equal(t, "X-Gateway-Model-Name", i.ModelBasedRoutingHeaderName)
		assert.Equal(t, ModelBasedRoutingEnabled, i.ModelBasedRoutingMode)
		assert.False(t, i.EnableGatewayAPI)
		assert.Empty(t, i.IngressGateway)
	}},
	{KeyLogger, func(t *testing.T, c *Config) {
		assert.Equal(t, "kserve/agent:latest", c.Logger.Image)
		assert.Equal(t, "http://default-broker", c.Logger.DefaultURL)
		assert.Equal(t, agentResources(), c.Logger.ResourceConfig)
		assert.Nil(t, c.Logger.Storage)
	}},
	{KeyBatcher, func(t *testing.T, c *Config) {
		assert.Equal(t, "kserve/agent:latest", c.Batcher.Image)
		assert.Equal(t, ResourceConfig{CPURequest: "1", CPULimit: "1", MemoryRequest: "1Gi", MemoryLimit: "1Gi"}, c.Batcher.ResourceConfig)
		assert.Equal(t, []string{"32", "5000"}, []string{c.Batcher.MaxBatchSize, c.Batcher.MaxLatency})
	}},
	{KeyAgent, func(t *testing.T, c *Config) {
		assert.Equal(t, "kserve/agent:latest", c.Agent.Image)
		assert.Equal(t, ResourceConfig{CPURequest: "100m", CPULimit: "1", MemoryRequest: "100Mi", MemoryLimit: "1Gi"}, c.Agent.ResourceConfig)
	}},
	{KeyRouter, func(t *testing.T, c *Config) {
		assert.Equal(t, "fsmserve/fsmserve:latest", c.Router.Image)
		assert.Equal(t, corev1.PullIfNotPresent, c.Router.ImagePullPolicy)
		assert.Empty(t, c.Router.PropagateHeaders())
		assert.Nil(t, c.Router.PullSecrets())
	}},
	{KeyDeploy, func(t *testing.T, c *Config) {
		assert.Equal(t, Standard, c.Deploy.DefaultDeploymentMode, "fsmserve ships Standard")
		assert.Nil(t, c.Deploy.DefaultRollout())
	}},
	{KeyService, func(t *testing.T, c *Config) { assert.False(t, c.Service.ServiceClusterIPNone) }},
	{KeyMetricsAggregator, func(t *testing.T, c *Config) {
		assert.False(t, c.MetricsAggregator.MetricAggregationEnabled())
		assert.False(t, c.MetricsAggregator.PrometheusScrapingEnabled())
	}},
	{KeyLocalModel, func(t *testing.T, c *Config) {
		l := c.LocalModel
		assert.False(t, l.Enabled)
		assert.Equal(t, "kserve-localmodel-jobs", l.JobNamespace)
		assert.Equal(t, "kserve/storage-initializer:latest", l.DefaultJobImage)
		assert.Nil(t, l.FSGroup)
		assert.EqualValues(t, 3600, l.JobTTLSecondsAfterFinished)
		assert.Equal(t, "1m0s", l.ReconcilationFrequency().String())
	}},
	{KeySecurity, func(t *testing.T, c *Config) {
		assert.False(t, c.Security.AutoMountServiceAccountToken, "KServe's code default")
	}},
	{KeyOpenTelemetryCollector, func(t *testing.T, c *Config) {
		o := c.OpenTelemetryCollector
		assert.Equal(t, "5s", o.ScrapeInterval)
		assert.Equal(t, "keda-otel-scaler.keda.svc:4317", o.MetricReceiverEndpoint)
		assert.Equal(t, "keda-otel-scaler.keda.svc:4318", o.MetricScalerEndpoint)
		assert.Empty(t, o.Resources().Limits)
	}},
	{KeyAutoscaler, func(t *testing.T, c *Config) {
		assert.Nil(t, c.Autoscaler.ScaleUpStabilizationWindow())
		assert.Nil(t, c.Autoscaler.ScaleDownStabilizationWindow())
	}},
}

// TestDefaultsWhenKeysAbsent pins the value every consumer sees when the
// ConfigMap is empty, key by key.
func TestDefaultsWhenKeysAbsent(t *testing.T) {
	cfg, errs := Parse(map[string]string{})
	require.Nil(t, errs)
	covered := map[string]bool{}
	for _, tt := range defaultCases {
		covered[tt.key] = true
		t.Run(tt.key, func(t *testing.T) { tt.check(t, cfg) })
	}
	for _, k := range KnownKeys() {
		assert.True(t, covered[k], "defaults of key %q are not tested", k)
	}
	assert.Equal(t, Default(), cfg, "Parse of nothing equals Default()")
}

func TestDefaultReturnsIndependentValues(t *testing.T) {
	a := Default()
	a.InferenceService.ServiceAnnotationDisallowedList[0] = "changed"
	b := Default()
	assert.Equal(t, "autoscaling.knative.dev/min-scale", b.InferenceService.ServiceAnnotationDisallowedList[0])
	assert.Equal(t, "autoscaling.knative.dev/min-scale", builtinServiceAnnotationDisallowedList[0])
}

func TestFromConfigMap(t *testing.T) {
	cfg, errs := FromConfigMap(nil)
	assert.Nil(t, errs)
	assert.Equal(t, Default(), cfg)

	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: ConfigMapName, Namespace: "kserve"},
		Data:       map[string]string{KeyDeploy: `{"defaultDeploymentMode": "Knative"}`, KeyService: `{"serviceClusterIPNone": true}`},
	}
	cfg, errs = FromConfigMap(cm)
	require.Nil(t, errs)
	assert.Equal(t, Knative, cfg.Deploy.DefaultDeploymentMode)
	assert.True(t, cfg.Service.ServiceClusterIPNone)
}

func TestUnknownKeysAndExampleAreIgnored(t *testing.T) {
	cfg, errs := Parse(map[string]string{
		KeyExample:     "this is documentation {{ not json",
		"resource":     "not json",
		"unknownThing": "{",
	})
	assert.Nil(t, errs)
	assert.Equal(t, Default(), cfg)
}

func TestUnknownFieldsInsideAKeyAreIgnored(t *testing.T) {
	cfg, errs := Parse(map[string]string{KeyAgent: `{"image": "a/b:1", "futureField": {"x": 1}}`})
	require.Nil(t, errs)
	assert.Equal(t, "a/b:1", cfg.Agent.Image)
}

func TestBrokenKeyDoesNotAffectOthers(t *testing.T) {
	cfg, errs := Parse(map[string]string{
		KeyIngress:            `{"ingressGateway": "a/b", "ingressDomain": "models.example.org", "domainTemplate": "{{ .Name }"}`,
		KeyDeploy:             `{"defaultDeploymentMode": "Serverless"}`,
		KeyStorageInitializer: `{"image": "my/init:1", "cpuLimit": "lots"}`,
		KeyAgent:              `{"image": "my/agent:2"}`,
		KeyLocalModel:         `{"enabled": true, "jobNamespace": "jobs"}`,
	})
	require.Equal(t, []string{KeyIngress, KeyStorageInitializer}, errs.Keys())
	assert.Equal(t, "domainTemplate", errs.For(KeyIngress).Field)
	assert.Equal(t, "cpuLimit", errs.For(KeyStorageInitializer).Field)

	def := Default()
	assert.Equal(t, def.Ingress, cfg.Ingress, "a rejected key keeps all its defaults, not part of the input")
	assert.Equal(t, def.StorageInitializer, cfg.StorageInitializer)
	assert.Equal(t, Knative, cfg.Deploy.DefaultDeploymentMode)
	assert.Equal(t, "my/agent:2", cfg.Agent.Image)
	assert.True(t, cfg.LocalModel.Enabled)
	assert.Equal(t, "jobs", cfg.LocalModel.JobNamespace)
}

func TestKnownKeys(t *testing.T) {
	assert.ElementsMatch(t, []string{
		"explainers", "inferenceService", "multiNode", "storageInitializer", "credentials", "ingress",
		"logger", "batcher", "agent", "router", "deploy", "service", "metricsAggregator", "localModel",
		"security", "opentelemetryCollector", "autoscaler",
	}, KnownKeys())
}
