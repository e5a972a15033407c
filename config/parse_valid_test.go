package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// fieldCase is one accepted value and what consumers must then see.
type fieldCase struct {
	name  string
	key   string
	value string
	check func(t *testing.T, c *Config)
}

var fieldCases = []fieldCase{
	{"explainers", KeyExplainers, `{"art": {"image": "my/art", "defaultImageVersion": "v2"}}`, func(t *testing.T, c *Config) {
		assert.Equal(t, "my/art:v2", c.Explainers.ART.Image(""))
		assert.Equal(t, "my/art:v9", c.Explainers.ART.Image("v9"))
	}},
	{"explainers empty image keeps shipped image", KeyExplainers, `{"art": {"image": ""}}`, func(t *testing.T, c *Config) {
		assert.Equal(t, "kserve/art-explainer:latest", c.Explainers.ART.Image(""))
	}},
	{"inferenceService lists extend built-ins", KeyInferenceService,
		`{"serviceAnnotationDisallowedList": ["my.custom.annotation/1", "modelFormat"], "serviceLabelDisallowedList": ["my.custom.label.1"]}`,
		func(t *testing.T, c *Config) {
			isvc := c.InferenceService
			assert.Equal(t, append(append([]string{}, builtinServiceAnnotationDisallowedList...), "my.custom.annotation/1"), isvc.ServiceAnnotationDisallowedList)
			assert.Equal(t, []string{"networking.knative.dev/visibility", "my.custom.label.1"}, isvc.ServiceLabelDisallowedList)
			assert.True(t, isvc.IsAnnotationDisallowed("kubectl.kubernetes.io/last-applied-configuration"))
			assert.True(t, isvc.IsAnnotationDisallowed("my.custom.annotation/1"))
			assert.False(t, isvc.IsAnnotationDisallowed("team"))
			assert.True(t, isvc.IsLabelDisallowed("my.custom.label.1"))
		}},
	{"inferenceService resource", KeyInferenceService,
		`{"resource": {"cpuLimit": "1", "memoryLimit": "2Gi", "cpuRequest": "500m", "memoryRequest": ""}}`,
		func(t *testing.T, c *Config) {
			r := c.InferenceService.Resources()
			assert.Equal(t, "1", r.Limits.Cpu().String())
			assert.Equal(t, "2Gi", r.Limits.Memory().String())
			assert.Equal(t, "500m", r.Requests.Cpu().String())
			_, hasMemRequest := r.Requests[corev1.ResourceMemory]
			assert.False(t, hasMemRequest, "an empty value leaves the resource unset")
		}},
	{"multiNode", KeyMultiNode, `{"customGPUResourceTypeList": ["custom.com/gpu", "nvidia.com/gpu"]}`, func(t *testing.T, c *Config) {
		m := c.MultiNode
		assert.Equal(t, []string{"nvidia.com/gpu", "amd.com/gpu", "intel.com/gpu", "habana.ai/gaudi", "custom.com/gpu"}, m.GPUResourceTypes())
		assert.True(t, m.IsKnownGPUResource("custom.com/gpu"))
	}},
	{"storageInitializer", KeyStorageInitializer, `{"image": "my/init:1", "cpuRequest": "200m", "cpuLimit": "2", "memoryRequest": "200Mi",
		"memoryLimit": "2Gi", "caBundleConfigMapName": "my-ca", "caBundleVolumeMountPath": "/certs", "enableModelcar": true,
		"cpuModelcar": "20m", "memoryModelcar": "30Mi", "uidModelcar": 1010, "enableOciModelSupport": true,
		"ociModelMode": "fetch", "ociInsecureRegistry": true}`,
		func(t *testing.T, c *Config) {
			s := c.StorageInitializer
			assert.Equal(t, "my/init:1", s.Image)
			r := s.Resources()
			assert.Equal(t, "200m", r.Requests.Cpu().String())
			assert.Equal(t, "2", r.Limits.Cpu().String())
			assert.Equal(t, "200Mi", r.Requests.Memory().String())
			assert.Equal(t, "2Gi", r.Limits.Memory().String())
			assert.Equal(t, "my-ca", s.CABundleConfigMapName)
			assert.Equal(t, "/certs", s.CABundleVolumeMountPath)
			assert.True(t, s.EnableModelcar)
			assert.True(t, s.EnableOCIModelSupport)
			assert.True(t, s.OCIInsecureRegistry)
			require.NotNil(t, s.UIDModelcar)
			assert.EqualValues(t, 1010, *s.UIDModelcar)
			assert.Equal(t, OCIFetch, s.EffectiveOCIModelMode())
			mc := s.ModelcarResources()
			assert.Equal(t, "20m", mc.Requests.Cpu().String())
			assert.Equal(t, "20m", mc.Limits.Cpu().String())
			assert.Equal(t, "30Mi", mc.Limits.Memory().String())
		}},
	{"storageInitializer empty quantities keep defaults", KeyStorageInitializer, `{"cpuRequest": "", "image": ""}`, func(t *testing.T, c *Config) {
		assert.Equal(t, "100m", c.StorageInitializer.CPURequest)
		assert.Equal(t, DefaultStorageInitializerImage, c.StorageInitializer.Image)
	}},
	{"storageInitializer modelcar switch", KeyStorageInitializer, `{"enableModelcar": true}`, func(t *testing.T, c *Config) {
		assert.Equal(t, OCIModelcar, c.StorageInitializer.EffectiveOCIModelMode())
	}},
	{"storageInitializer oci support switch", KeyStorageInitializer, `{"enableOciModelSupport": true}`, func(t *testing.T, c *Config) {
		assert.Equal(t, OCIModelcar, c.StorageInitializer.EffectiveOCIModelMode())
	}},
	{"credentials", KeyCredentials, `{"storageSpecSecretName": "my-storage", "storageSecretNameAnnotation": "serving.kserve.io/storageSecretName",
		"gcs": {"gcsCredentialFileName": "gcp.json"},
		"s3": {"s3AccessKeyIDName": "AWS_ACCESS_KEY_ID", "s3SecretAccessKeyName": "AWS_SECRET_ACCESS_KEY", "s3Endpoint": "s3.example.com",
		"s3UseHttps": "1", "s3Region": "eu-west-1", "s3VerifySSL": "false", "s3UseVirtualBucket": "true", "s3UseAccelerate": "false",
		"s3UseAnonymousCredential": "true", "s3CABundleConfigMap": "s3-ca", "s3CABundle": "/etc/ca.crt"}}`,
		func(t *testing.T, c *Config) {
			cr := c.Credentials
			assert.Equal(t, "gcp.json", cr.GCS.GCSCredentialFileName)
			assert.Equal(t, S3Config{S3AccessKeyIDName: "AWS_ACCESS_KEY_ID", S3SecretAccessKeyName: "AWS_SECRET_ACCESS_KEY",
				S3Endpoint: "s3.example.com", S3UseHttps: "1", S3Region: "eu-west-1", S3VerifySSL: "false", S3UseVirtualBucket: "true",
				S3UseAccelerate: "false", S3UseAnonymousCredential: "true", S3CABundleConfigMap: "s3-ca", S3CABundle: "/etc/ca.crt"}, cr.S3)
			assert.Equal(t, "my-storage", cr.StorageSecretName(nil))
			assert.Equal(t, "override", cr.StorageSecretName(map[string]string{"serving.kserve.io/storageSecretName": "override"}))
		}},
	{"credentials partial s3 keeps code defaults", KeyCredentials, `{"s3": {"s3Endpoint": "minio:9000"}}`, func(t *testing.T, c *Config) {
		assert.Equal(t, "awsAccessKeyID", c.Credentials.S3.S3AccessKeyIDName)
		assert.Equal(t, "minio:9000", c.Credentials.S3.S3Endpoint)
		assert.Equal(t, "storage-config", c.Credentials.StorageSecretName(map[string]string{"": "x"}),
			"without a configured annotation nothing overrides the secret")
	}},
	{"logger", KeyLogger, `{"image": "my/agent", "cpuRequest": "50m", "cpuLimit": "500m", "memoryRequest": "50Mi", "memoryLimit": "500Mi",
		"defaultUrl": "http://sink.default", "caBundle": "ca", "caCertFile": "ca.crt", "tlsSkipVerify": true,
		"storage": {"path": "/logs", "parameters": {"type": "s3"}}, "marshallerUrl": "http://m.svc", "batchSize": 5, "batchInterval": "2s"}`,
		func(t *testing.T, c *Config) {
			l := c.Logger
			assert.Equal(t, ResourceConfig{CPURequest: "50m", CPULimit: "500m", MemoryRequest: "50Mi", MemoryLimit: "500Mi"}, l.ResourceConfig)
			assert.Equal(t, []string{"http://sink.default", "ca", "ca.crt", "http://m.svc", "2s"},
				[]string{l.DefaultURL, l.CABundle, l.CACertFile, l.MarshallerURL, l.BatchInterval})
			assert.True(t, l.TLSSkipVerify)
			assert.Equal(t, 5, l.BatchSize)
			require.NotNil(t, l.Storage)
			assert.Equal(t, LoggerStorageConfig{Path: "/logs", Parameters: map[string]string{"type": "s3"},
				StorageKey: "credentials", ServiceAccountName: "logger-sa"}, *l.Storage)
		}},
	{"batcher", KeyBatcher, `{"image": "b", "maxBatchSize": "16", "maxLatency": "300", "cpuLimit": "2"}`, func(t *testing.T, c *Config) {
		b := c.Batcher
		assert.Equal(t, []string{"b", "16", "300", "2", "1"}, []string{b.Image, b.MaxBatchSize, b.MaxLatency, b.CPULimit, b.CPURequest})
	}},
	{"agent", KeyAgent, `{"image": "a", "cpuRequest": "1", "cpuLimit": "2", "memoryRequest": "1Gi", "memoryLimit": "2Gi"}`, func(t *testing.T, c *Config) {
		r := c.Agent.Resources()
		assert.Equal(t, "a", c.Agent.Image)
		assert.Equal(t, "2", r.Limits.Cpu().String())
		assert.Equal(t, "1Gi", r.Requests.Memory().String())
	}},
	{"router", KeyRouter, `{"image": "r", "headers": {"propagate": ["Authorization", "Test-Header-.*"]},
		"imagePullPolicy": "Always", "imagePullSecrets": ["docker-secret"]}`,
		func(t *testing.T, c *Config) {
			r := c.Router
			assert.Equal(t, []string{"Authorization", "Test-Header-.*"}, r.PropagateHeaders())
			assert.Equal(t, corev1.PullAlways, r.ImagePullPolicy)
			assert.Equal(t, []corev1.LocalObjectReference{{Name: "docker-secret"}}, r.PullSecrets())
			assert.Equal(t, "100m", r.CPURequest)
		}},
	{"service", KeyService, `{"serviceClusterIPNone": true}`, func(t *testing.T, c *Config) {
		assert.True(t, c.Service.ServiceClusterIPNone)
	}},
	{"metricsAggregator", KeyMetricsAggregator, `{"enableMetricAggregation": "true", "enablePrometheusScraping": "TRUE"}`, func(t *testing.T, c *Config) {
		assert.True(t, c.MetricsAggregator.MetricAggregationEnabled())
		assert.True(t, c.MetricsAggregator.PrometheusScrapingEnabled())
	}},
	{"localModel", KeyLocalModel, `{"enabled": true, "jobNamespace": "jobs", "defaultJobImage": "j", "fsGroup": 1000,
		"jobTTLSecondsAfterFinished": 0, "reconcilationFrequencyInSecs": 30, "disableVolumeManagement": true}`,
		func(t *testing.T, c *Config) {
			l := c.LocalModel
			assert.True(t, l.Enabled)
			assert.True(t, l.DisableVolumeManagement)
			assert.Equal(t, []string{"jobs", "j"}, []string{l.JobNamespace, l.DefaultJobImage})
			require.NotNil(t, l.FSGroup)
			assert.EqualValues(t, 1000, *l.FSGroup)
			assert.EqualValues(t, 0, l.JobTTLSecondsAfterFinished, "an explicit zero is kept")
			assert.Equal(t, "30s", l.ReconcilationFrequency().String())
		}},
	{"security", KeySecurity, `{"autoMountServiceAccountToken": true}`, func(t *testing.T, c *Config) {
		assert.True(t, c.Security.AutoMountServiceAccountToken)
	}},
	{"security present without field is false", KeySecurity, `{}`, func(t *testing.T, c *Config) {
		assert.False(t, c.Security.AutoMountServiceAccountToken)
	}},
	{"opentelemetryCollector", KeyOpenTelemetryCollector, `{"scrapeInterval": "10s", "metricReceiverEndpoint": "r:1",
		"metricScalerEndpoint": "s:2", "resource": {"cpuLimit": "1", "memoryLimit": "2Gi", "cpuRequest": "200m", "memoryRequest": "512Mi"}}`,
		func(t *testing.T, c *Config) {
			o := c.OpenTelemetryCollector
			assert.Equal(t, []string{"10s", "r:1", "s:2"}, []string{o.ScrapeInterval, o.MetricReceiverEndpoint, o.MetricScalerEndpoint})
			res := o.Resources()
			assert.Equal(t, "512Mi", res.Requests.Memory().String())
		}},
	{"autoscaler", KeyAutoscaler, `{"scaleUpStabilizationWindowSeconds": "0", "scaleDownStabilizationWindowSeconds": "300"}`, func(t *testing.T, c *Config) {
		require.NotNil(t, c.Autoscaler.ScaleUpStabilizationWindow())
		assert.EqualValues(t, 0, *c.Autoscaler.ScaleUpStabilizationWindow())
		assert.EqualValues(t, 300, *c.Autoscaler.ScaleDownStabilizationWindow())
	}},
	{"null value keeps defaults", KeyAgent, `null`, func(t *testing.T, c *Config) {
		assert.Equal(t, defaultAgent(), c.Agent)
	}},
}

// TestParseFields checks that every field of every key is read under KServe's
// JSON name.
func TestParseFields(t *testing.T) {
	for _, tt := range fieldCases {
		t.Run(tt.name, func(t *testing.T) {
			cfg, errs := Parse(map[string]string{tt.key: tt.value})
			require.Nil(t, errs, "unexpected errors: %v", errs.Err())
			tt.check(t, cfg)
		})
	}
}
