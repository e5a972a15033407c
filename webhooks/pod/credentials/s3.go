package credentials

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// Variables the storage initializer (boto3 and KServe's own S3 code) reads.
const (
	envAWSAccessKeyID     = "AWS_ACCESS_KEY_ID"
	envAWSSecretAccessKey = "AWS_SECRET_ACCESS_KEY" // #nosec G101 -- a variable name
	envAWSEndpointURL     = "AWS_ENDPOINT_URL"
	envAWSRegion          = "AWS_DEFAULT_REGION"
	envS3Endpoint         = "S3_ENDPOINT"
	envS3UseHTTPS         = "S3_USE_HTTPS"
	envS3VerifySSL        = "S3_VERIFY_SSL"
	envS3VirtualBucket    = "S3_USER_VIRTUAL_BUCKET"
	envS3UseAccelerate    = "S3_USE_ACCELERATE"
	envAWSAnonymous       = "awsAnonymousCredential"
	envAWSCABundle        = "AWS_CA_BUNDLE"
	envAWSCABundleCM      = "AWS_CA_BUNDLE_CONFIGMAP"
)

func s3SecretKeyName(cfg *config.CredentialsConfig) string {
	if cfg.S3.S3SecretAccessKeyName != "" {
		return cfg.S3.S3SecretAccessKeyName
	}
	return config.DefaultS3SecretAccessKeyName
}

func s3AccessKeyName(cfg *config.CredentialsConfig) string {
	if cfg.S3.S3AccessKeyIDName != "" {
		return cfg.S3.S3AccessKeyIDName
	}
	return config.DefaultS3AccessKeyIDName
}

// s3SecretEnv reads the key pair from the secret and the store's settings
// from the secret's annotations, its data, or the cluster-wide config.
func s3SecretEnv(cfg *config.CredentialsConfig, s *corev1.Secret) []corev1.EnvVar {
	out := []corev1.EnvVar{
		podspec.SecretEnv(envAWSAccessKeyID, s.Name, s3AccessKeyName(cfg)),
		podspec.SecretEnv(envAWSSecretAccessKey, s.Name, s3SecretKeyName(cfg)),
	}
	return append(out, s3Settings(s.Annotations, s.Data, &cfg.S3)...)
}

// s3Setting is one variable and where its value may come from, first match
// winning: an annotation, a data key of the secret, the config.
type s3Setting struct {
	env, annotation string
	fallback        func(*config.S3Config) string
}

// s3SettingsAfterEndpoint are the settings after the endpoint, in KServe's order.
var s3SettingsAfterEndpoint = []s3Setting{
	{envS3VerifySSL, v1beta1.S3VerifySSLAnnotation, func(c *config.S3Config) string { return c.S3VerifySSL }},
	{envAWSAnonymous, v1beta1.S3UseAnonCredentialAnnotation, func(c *config.S3Config) string { return c.S3UseAnonymousCredential }},
	{envAWSRegion, v1beta1.S3RegionAnnotation, func(c *config.S3Config) string { return c.S3Region }},
	{envS3VirtualBucket, v1beta1.S3UseVirtualBucketAnnotation, func(c *config.S3Config) string { return c.S3UseVirtualBucket }},
	{envS3UseAccelerate, v1beta1.S3UseAccelerateAnnotation, func(c *config.S3Config) string { return c.S3UseAccelerate }},
	{envAWSCABundle, v1beta1.S3CABundleAnnotation, func(c *config.S3Config) string { return c.S3CABundle }},
	{envAWSCABundleCM, v1beta1.S3CABundleConfigMapAnnotation, func(c *config.S3Config) string { return c.S3CABundleConfigMap }},
}

// s3Settings builds the non-secret S3 variables; a setting with no value
// anywhere is left out so the storage initializer's own default applies.
func s3Settings(annotations map[string]string, data map[string][]byte, cfg *config.S3Config) []corev1.EnvVar {
	lookup := func(annotation, dataKey, fallback string) string {
		if v, ok := annotations[annotation]; ok {
			return v
		}
		if v, ok := data[dataKey]; ok {
			return string(v)
		}
		return fallback
	}
	var out []corev1.EnvVar
	if endpoint := strings.TrimSpace(lookup(v1beta1.S3EndpointAnnotation, envS3Endpoint, cfg.S3Endpoint)); endpoint != "" {
		useHTTPS := lookup(v1beta1.S3UseHTTPSAnnotation, envS3UseHTTPS, cfg.S3UseHttps)
		out = append(out, s3EndpointEnv(endpoint, useHTTPS)...)
	}
	for _, s := range s3SettingsAfterEndpoint {
		if v := lookup(s.annotation, s.env, s.fallback(cfg)); v != "" {
			out = append(out, corev1.EnvVar{Name: s.env, Value: v})
		}
	}
	return out
}

// s3EndpointEnv splits an endpoint into host and URL. A scheme written in the
// endpoint decides HTTPS; otherwise useHTTPS does, HTTPS being the default.
func s3EndpointEnv(endpoint, useHTTPS string) []corev1.EnvVar {
	host, url := endpoint, ""
	lower := strings.ToLower(endpoint)
	switch {
	case strings.HasPrefix(lower, "https://"):
		useHTTPS, host, url = "1", endpoint[len("https://"):], endpoint
	case strings.HasPrefix(lower, "http://"):
		useHTTPS, host, url = "0", endpoint[len("http://"):], endpoint
	case useHTTPS == "0":
		url = "http://" + endpoint
	default:
		url = "https://" + endpoint
	}
	var out []corev1.EnvVar
	if useHTTPS != "" {
		out = append(out, corev1.EnvVar{Name: envS3UseHTTPS, Value: useHTTPS})
	}
	return append(out, corev1.EnvVar{Name: envS3Endpoint, Value: host}, corev1.EnvVar{Name: envAWSEndpointURL, Value: url})
}
