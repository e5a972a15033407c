package credentials

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// GCS: the key file is mounted and named by GOOGLE_APPLICATION_CREDENTIALS.
const (
	gcsVolumeName     = "user-gcp-sa"
	gcsMountPath      = "/var/secrets/"
	gcsCredentialsEnv = "GOOGLE_APPLICATION_CREDENTIALS"
)

// HDFS: the whole secret (namenode, Kerberos keytab, TLS files) is mounted.
const (
	hdfsVolumeName = "hdfs-secrets"
	hdfsMountPath  = "/var/secrets/kserve-hdfscreds"
)

func gcsFileName(cfg *config.CredentialsConfig) string {
	if cfg.GCS.GCSCredentialFileName != "" {
		return cfg.GCS.GCSCredentialFileName
	}
	return config.DefaultGCSCredentialFileName
}

// azureVariables are the variables the storage initializer reads, in KServe's
// order; legacyAzureKeys are older data-key spellings of four of them.
var (
	azureVariables = []string{
		"AZURE_SUBSCRIPTION_ID", "AZURE_TENANT_ID", azureClientID, "AZURE_CLIENT_SECRET",
		azureStorageAccessKey, azureAccessToken, "AZURE_ACCESS_EXPIRES_ON_SECONDS",
		"AZURE_ACCOUNT_NAME", "AZURE_SERVICE_URL",
	}
	legacyAzureKeys = map[string]string{
		"AZURE_SUBSCRIPTION_ID": "AZ_SUBSCRIPTION_ID",
		"AZURE_TENANT_ID":       "AZ_TENANT_ID",
		azureClientID:           azureLegacyClientID,
		"AZURE_CLIENT_SECRET":   "AZ_CLIENT_SECRET",
	}
)

// azureEnv reads every Azure variable the secret has a key for, preferring
// the legacy key when both spellings are present, as KServe does. Unlike
// KServe, a variable whose key is absent is not referenced at all: a
// reference to a missing key keeps the container from starting.
func azureEnv(s *corev1.Secret) []corev1.EnvVar {
	var out []corev1.EnvVar
	for _, name := range azureVariables {
		key := name
		if legacy, ok := legacyAzureKeys[name]; ok {
			if _, present := s.Data[legacy]; present {
				key = legacy
			}
		}
		if _, present := s.Data[key]; present {
			out = append(out, podspec.SecretEnv(name, s.Name, key))
		}
	}
	return out
}

// httpsEnv gives the storage initializer the headers to send to one host, in
// the variable "{host}-headers" it looks up. The value is read from the
// secret rather than copied into the pod spec, so the headers (usually a
// token) stay as private as the secret.
func httpsEnv(s *corev1.Secret) []corev1.EnvVar {
	host, ok := s.Data[httpsHostKey]
	if !ok || len(host) == 0 {
		return nil
	}
	if _, ok := s.Data[httpsHeadersKey]; !ok {
		return nil
	}
	return []corev1.EnvVar{podspec.SecretEnv(string(host)+"-"+httpsHeadersKey, s.Name, httpsHeadersKey)}
}
