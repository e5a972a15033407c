package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gw is the field every ingress document needs; the cases add one mistake.
const gw = `"ingressGateway": "knative-serving/knative-ingress-gateway"`

// rejectCase is one malformed value and where the error must point.
type rejectCase struct {
	name, key, value string
	wantField        string
	wantProblem      string
}

var rejectCases = []rejectCase{
	// Whole-document problems, shown on one key; every key shares decodeJSON.
	{"empty value", KeyAgent, "  ", "", "empty"},
	{"bad JSON", KeyStorageInitializer, `{"image": "x",}`, "", "invalid JSON"},
	{"truncated JSON", KeyLogger, `{"image": "x"`, "", "ends early"},
	{"array instead of object", KeyLocalModel, `[1, 2]`, "", "JSON array, not an object"},
	{"string instead of object", KeyDeploy, `"Standard"`, "", "JSON string, not an object"},
	{"trailing data", KeyService, `{} {}`, "", "after the JSON object"},
	{"wrong type nested", KeyCredentials, `{"s3": {"s3Endpoint": 5}}`, "s3.s3Endpoint", "want a string"},
	{"wrong type flattened", KeyAgent, `{"cpuLimit": 1}`, "cpuLimit", "want a string"},
	{"wrong type bool", KeySecurity, `{"autoMountServiceAccountToken": "yes"}`, "autoMountServiceAccountToken", "want a boolean"},
	{"wrong type list", KeyMultiNode, `{"customGPUResourceTypeList": "a.com/gpu"}`, "customGPUResourceTypeList", "want an array"},
	{"wrong type explainers", KeyExplainers, `{"art": "kserve/art"}`, "art", "want an object"},
	{"wrong type service", KeyService, `{"serviceClusterIPNone": "true"}`, "serviceClusterIPNone", "want a boolean"},

	{"inferenceService bad quantity", KeyInferenceService, `{"resource": {"cpuLimit": "one"}}`, "resource.cpuLimit", "not a Kubernetes quantity"},
	{"inferenceService negative quantity", KeyInferenceService, `{"resource": {"memoryRequest": "-1Gi"}}`, "resource.memoryRequest", "negative"},
	{"inferenceService request above limit", KeyInferenceService, `{"resource": {"cpuRequest": "2", "cpuLimit": "1"}}`, "resource.cpuRequest", "greater than limit"},
	{"multiNode bad resource name", KeyMultiNode, `{"customGPUResourceTypeList": ["ok.com/gpu", "not a name"]}`, "customGPUResourceTypeList[1]", "not a resource name"},

	{"storageInitializer bad cpu", KeyStorageInitializer, `{"cpuRequest": "fast"}`, "cpuRequest", "not a Kubernetes quantity"},
	{"storageInitializer memory above limit", KeyStorageInitializer, `{"memoryRequest": "2Gi"}`, "memoryRequest", "greater than limit"},
	{"storageInitializer bad modelcar cpu", KeyStorageInitializer, `{"cpuModelcar": "x"}`, "cpuModelcar", "not a Kubernetes quantity"},
	{"storageInitializer bad modelcar memory", KeyStorageInitializer, `{"memoryModelcar": "1Zi"}`, "memoryModelcar", "not a Kubernetes quantity"},
	{"storageInitializer unknown oci mode", KeyStorageInitializer, `{"ociModelMode": "sidecar"}`, "ociModelMode", "unknown OCI model mode"},
	{"storageInitializer negative uid", KeyStorageInitializer, `{"uidModelcar": -5}`, "uidModelcar", "negative"},
	{"storageInitializer relative mount path", KeyStorageInitializer, `{"caBundleVolumeMountPath": "certs"}`, "caBundleVolumeMountPath", "not an absolute path"},
	{"storageInitializer bad ca configmap", KeyStorageInitializer, `{"caBundleConfigMapName": "My_CA"}`, "caBundleConfigMapName", "not a valid object name"},

	{"credentials bad secret name", KeyCredentials, `{"storageSpecSecretName": "Storage Config"}`, "storageSpecSecretName", "not a valid object name"},
	{"credentials bad boolean", KeyCredentials, `{"s3": {"s3UseHttps": "sometimes"}}`, "s3.s3UseHttps", "not a boolean"},
	{"credentials bad ca configmap", KeyCredentials, `{"s3": {"s3CABundleConfigMap": "_x"}}`, "s3.s3CABundleConfigMap", "not a valid object name"},

	{"ingress without ingressGateway", KeyIngress, `{"ingressDomain": "example.com"}`, "ingressGateway", "required"},
	{"ingress gateway api without gateway", KeyIngress, `{` + gw + `, "enableGatewayApi": true}`, "kserveIngressGateway", "required"},
	{"ingress gateway api bad format", KeyIngress, `{` + gw + `, "enableGatewayApi": true, "kserveIngressGateway": "kserve"}`, "kserveIngressGateway", "namespace/name"},
	{"ingress gateway api bad namespace", KeyIngress, `{` + gw + `, "enableGatewayApi": true, "kserveIngressGateway": "Kserve/gw"}`, "kserveIngressGateway", "namespace"},
	{"ingress gateway api bad name", KeyIngress, `{` + gw + `, "enableGatewayApi": true, "kserveIngressGateway": "kserve/gw_1"}`, "kserveIngressGateway", "gateway name"},
	{"ingress pathTemplate without domain", KeyIngress, `{` + gw + `, "pathTemplate": "/serving/{{ .Name }}"}`, "ingressDomain", "required when pathTemplate"},
	{"ingress bad domain", KeyIngress, `{` + gw + `, "ingressDomain": "Example.COM"}`, "ingressDomain", "not a DNS name"},
	{"ingress bad additional domain", KeyIngress, `{` + gw + `, "additionalIngressDomains": ["ok.example.com", "bad_domain"]}`, "additionalIngressDomains[1]", "not a DNS name"},
	{"ingress bad scheme", KeyIngress, `{` + gw + `, "urlScheme": "ftp"}`, "urlScheme", "unknown scheme"},
	{"ingress bad routing mode", KeyIngress, `{` + gw + `, "modelBasedRoutingMode": "always"}`, "modelBasedRoutingMode", "unknown mode"},
	{"ingress domainTemplate does not parse", KeyIngress, `{` + gw + `, "domainTemplate": "{{ .Name }"}`, "domainTemplate", `unexpected "}" in operand`},
	{"ingress domainTemplate unknown variable", KeyIngress, `{` + gw + `, "domainTemplate": "{{ .Host }}.example.com"}`, "domainTemplate", "can't evaluate field Host"},
	{"ingress domainTemplate invalid host", KeyIngress, `{` + gw + `, "domainTemplate": "{{ .Name }}_{{ .Namespace }}.{{ .IngressDomain }}"}`, "domainTemplate", "invalid host"},
	{"ingress domainTemplate single label", KeyIngress, `{` + gw + `, "domainTemplate": "{{ .Name }}"}`, "domainTemplate", "at least two segments"},
	{"ingress domainTemplate with range", KeyIngress, `{` + gw + `, "domainTemplate": "{{ range 5 }}a{{ end }}.example.com"}`, "domainTemplate", "range is not allowed"},
	{"ingress domainTemplate with define", KeyIngress, `{` + gw + `, "domainTemplate": "{{ define \"x\" }}a{{ end }}{{ .Name }}.example.com"}`, "domainTemplate", "not allowed"},
	{"ingress pathTemplate does not parse", KeyIngress, `{` + gw + `, "ingressDomain": "example.com", "pathTemplate": "/{{ .Name"}`, "pathTemplate", "unclosed action"},
	{"ingress pathTemplate not a path", KeyIngress, `{` + gw + `, "ingressDomain": "example.com", "pathTemplate": "http://host/{{ .Name }}"}`, "pathTemplate", "more than a path"},
	{"ingress pathTemplate relative", KeyIngress, `{` + gw + `, "ingressDomain": "example.com", "pathTemplate": "{{ .Name }}"}`, "pathTemplate", "invalid path"},

	{"logger bad quantity", KeyLogger, `{"memoryLimit": "1 Gi"}`, "memoryLimit", "not a Kubernetes quantity"},
	{"logger bad default url", KeyLogger, `{"defaultUrl": "default-broker"}`, "defaultUrl", "not an absolute URL"},
	{"logger bad marshaller url", KeyLogger, `{"marshallerUrl": "::"}`, "marshallerUrl", "not an absolute URL"},
	{"logger negative batch size", KeyLogger, `{"batchSize": -1}`, "batchSize", "negative"},
	{"logger bad batch interval", KeyLogger, `{"batchInterval": "5"}`, "batchInterval", "not a non-negative duration"},
	{"logger bad service account", KeyLogger, `{"storage": {"serviceAccountName": "Logger SA"}}`, "storage.serviceAccountName", "not a valid object name"},
	{"batcher bad max batch size", KeyBatcher, `{"maxBatchSize": "many"}`, "maxBatchSize", "not a non-negative whole number"},
	{"batcher negative latency", KeyBatcher, `{"maxLatency": "-1"}`, "maxLatency", "not a non-negative whole number"},
	{"batcher bad quantity", KeyBatcher, `{"cpuRequest": "1core"}`, "cpuRequest", "not a Kubernetes quantity"},
	{"agent bad quantity", KeyAgent, `{"memoryRequest": "lots"}`, "memoryRequest", "not a Kubernetes quantity"},
	{"agent request above limit", KeyAgent, `{"cpuRequest": "4"}`, "cpuRequest", "greater than limit"},
	{"router bad quantity", KeyRouter, `{"cpuLimit": "x"}`, "cpuLimit", "not a Kubernetes quantity"},
	{"router bad pull policy", KeyRouter, `{"imagePullPolicy": "Sometimes"}`, "imagePullPolicy", "unknown pull policy"},
	{"router empty pull secret", KeyRouter, `{"imagePullSecrets": [""]}`, "imagePullSecrets[0]", "empty"},
	{"router bad pull secret", KeyRouter, `{"imagePullSecrets": ["Docker Secret"]}`, "imagePullSecrets[0]", "not a valid object name"},
	{"router glob header", KeyRouter, `{"headers": {"propagate": ["Authorization", "*Trace-Id*"]}}`, "headers.propagate[1]", "not a Go regular expression"},
	{"router header with comma", KeyRouter, `{"headers": {"propagate": ["A,B"]}}`, "headers.propagate[0]", "comma"},

	{"deploy without mode", KeyDeploy, `{}`, "defaultDeploymentMode", "required"},
	{"deploy unknown mode", KeyDeploy, `{"defaultDeploymentMode": "Serverful"}`, "defaultDeploymentMode", `unknown deployment mode "Serverful"`},
	{"deploy lower-case mode", KeyDeploy, `{"defaultDeploymentMode": "standard"}`, "defaultDeploymentMode", "unknown deployment mode"},
	{"deploy bad surge", KeyDeploy, `{"defaultDeploymentMode": "Standard", "deploymentRolloutStrategy": {"defaultRollout": {"maxSurge": "one", "maxUnavailable": "1"}}}`,
		"deploymentRolloutStrategy.defaultRollout.maxSurge", "not a non-negative number or percentage"},
	{"deploy unavailable above 100%", KeyDeploy, `{"defaultDeploymentMode": "Standard", "deploymentRolloutStrategy": {"defaultRollout": {"maxSurge": "1", "maxUnavailable": "150%"}}}`,
		"deploymentRolloutStrategy.defaultRollout.maxUnavailable", "more than 100%"},
	{"deploy both zero", KeyDeploy, `{"defaultDeploymentMode": "Standard", "deploymentRolloutStrategy": {"defaultRollout": {"maxSurge": "0", "maxUnavailable": "0%"}}}`,
		"deploymentRolloutStrategy.defaultRollout.maxUnavailable", "both zero"},

	{"metricsAggregator not a boolean", KeyMetricsAggregator, `{"enableMetricAggregation": "enabled"}`, "enableMetricAggregation", "not a boolean"},
	{"metricsAggregator json boolean", KeyMetricsAggregator, `{"enablePrometheusScraping": true}`, "enablePrometheusScraping", "want a string"},
	{"localModel bad namespace", KeyLocalModel, `{"jobNamespace": "Jobs"}`, "jobNamespace", "not a namespace name"},
	{"localModel negative fsGroup", KeyLocalModel, `{"fsGroup": -1}`, "fsGroup", "negative"},
	{"localModel negative ttl", KeyLocalModel, `{"jobTTLSecondsAfterFinished": -1}`, "jobTTLSecondsAfterFinished", "negative"},
	{"localModel zero frequency", KeyLocalModel, `{"reconcilationFrequencyInSecs": 0}`, "reconcilationFrequencyInSecs", "not a usable number"},
	{"localModel huge frequency", KeyLocalModel, `{"reconcilationFrequencyInSecs": 9223372036854775807}`, "reconcilationFrequencyInSecs", "not a usable number"},
	{"localModel fractional ttl", KeyLocalModel, `{"jobTTLSecondsAfterFinished": 1.5}`, "jobTTLSecondsAfterFinished", "want a whole number"},
	{"opentelemetryCollector bad interval", KeyOpenTelemetryCollector, `{"scrapeInterval": "5"}`, "scrapeInterval", "not a positive duration"},
	{"opentelemetryCollector bad quantity", KeyOpenTelemetryCollector, `{"resource": {"cpuRequest": "x"}}`, "resource.cpuRequest", "not a Kubernetes quantity"},
	{"autoscaler not a number", KeyAutoscaler, `{"scaleUpStabilizationWindowSeconds": "soon"}`, "scaleUpStabilizationWindowSeconds", "whole number of seconds"},
	{"autoscaler above API limit", KeyAutoscaler, `{"scaleDownStabilizationWindowSeconds": "3601"}`, "scaleDownStabilizationWindowSeconds", "between 0 and 3600"},
	{"autoscaler json number", KeyAutoscaler, `{"scaleDownStabilizationWindowSeconds": 300}`, "scaleDownStabilizationWindowSeconds", "want a string"},
}

// TestParseRejects checks that each malformed value yields exactly one
// KeyError naming the key and the field, with a fix, and that the key keeps
// its defaults.
func TestParseRejects(t *testing.T) {
	for _, tt := range rejectCases {
		t.Run(tt.name, func(t *testing.T) {
			cfg, errs := Parse(map[string]string{tt.key: tt.value})
			require.Equal(t, []string{tt.key}, errs.Keys(), "exactly the broken key is reported")
			ke := errs.For(tt.key)
			assert.Equal(t, tt.key, ke.Key)
			assert.Equal(t, tt.wantField, ke.Field)
			assert.Contains(t, ke.Problem, tt.wantProblem)
			assert.NotEmpty(t, ke.Fix, "every error says how to fix it")
			assert.True(t, strings.HasPrefix(ke.Error(), `inferenceservice-config key "`+tt.key+`": `), ke.Error())
			if tt.wantField != "" {
				assert.Contains(t, ke.Error(), `field "`+tt.wantField+`"`)
			}
			assert.Equal(t, Default(), cfg, "a rejected key keeps its defaults")
		})
	}
}

func TestDomainTemplateErrorMessage(t *testing.T) {
	_, errs := Parse(map[string]string{KeyIngress: `{"ingressGateway": "a/b", "domainTemplate": "{{ .Name }-{{ .Namespace }}"}`})
	require.NotNil(t, errs.For(KeyIngress))
	assert.Equal(t,
		`inferenceservice-config key "ingress": field "domainTemplate": template: domainTemplate:1: unexpected "}" in operand; `+
			`fix: use Go template syntax such as {{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}`,
		errs.For(KeyIngress).Error())
	assert.Equal(t, "InvalidIngressConfig", errs.For(KeyIngress).Reason())
}
