package config

import (
	"fmt"
	"strconv"
)

// Credential defaults from KServe's code. The S3 data-key names differ from
// the ones KServe ships in its ConfigMap (AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY); an absent field falls back to these.
const (
	DefaultStorageSpecSecretName = "storage-config"
	DefaultGCSCredentialFileName = "gcloud-application-credentials.json"
	DefaultS3AccessKeyIDName     = "awsAccessKeyID"
	DefaultS3SecretAccessKeyName = "awsSecretAccessKey"
)

// CredentialsConfig is the `credentials` key.
type CredentialsConfig struct {
	S3  S3Config  `json:"s3,omitempty"`
	GCS GCSConfig `json:"gcs,omitempty"`
	// StorageSpecSecretName is the Secret read for `storage:` specs.
	StorageSpecSecretName string `json:"storageSpecSecretName,omitempty"`
	// StorageSecretNameAnnotation names an InferenceService annotation whose
	// value, when present, overrides StorageSpecSecretName. Empty means no
	// annotation can override it.
	StorageSecretNameAnnotation string `json:"storageSecretNameAnnotation,omitempty"`
}

// GCSConfig names the data key of a GCS service-account Secret.
type GCSConfig struct {
	GCSCredentialFileName string `json:"gcsCredentialFileName,omitempty"`
}

// S3Config names the S3 Secret data keys and holds cluster-wide fallbacks for
// the per-Secret serving.kserve.io/s3-* annotations. The fallbacks stay
// strings because they are copied verbatim into storage-initializer env vars;
// empty means "not set".
type S3Config struct {
	S3AccessKeyIDName        string `json:"s3AccessKeyIDName,omitempty"`
	S3SecretAccessKeyName    string `json:"s3SecretAccessKeyName,omitempty"`
	S3Endpoint               string `json:"s3Endpoint,omitempty"`
	S3UseHttps               string `json:"s3UseHttps,omitempty"`
	S3Region                 string `json:"s3Region,omitempty"`
	S3VerifySSL              string `json:"s3VerifySSL,omitempty"`
	S3UseVirtualBucket       string `json:"s3UseVirtualBucket,omitempty"`
	S3UseAccelerate          string `json:"s3UseAccelerate,omitempty"`
	S3UseAnonymousCredential string `json:"s3UseAnonymousCredential,omitempty"`
	S3CABundleConfigMap      string `json:"s3CABundleConfigMap,omitempty"`
	S3CABundle               string `json:"s3CABundle,omitempty"`
}

func defaultCredentials() CredentialsConfig {
	return CredentialsConfig{
		StorageSpecSecretName: DefaultStorageSpecSecretName,
		GCS:                   GCSConfig{GCSCredentialFileName: DefaultGCSCredentialFileName},
		S3: S3Config{
			S3AccessKeyIDName:     DefaultS3AccessKeyIDName,
			S3SecretAccessKeyName: DefaultS3SecretAccessKeyName,
		},
	}
}

// StorageSecretName is the Secret holding storage-spec credentials for an
// InferenceService with these annotations.
func (c *CredentialsConfig) StorageSecretName(annotations map[string]string) string {
	if c.StorageSecretNameAnnotation != "" {
		if name, ok := annotations[c.StorageSecretNameAnnotation]; ok && name != "" {
			return name
		}
	}
	return c.StorageSpecSecretName
}

func (c *CredentialsConfig) validate() *KeyError {
	def := defaultCredentials()
	orDefault(&c.StorageSpecSecretName, def.StorageSpecSecretName)
	orDefault(&c.GCS.GCSCredentialFileName, def.GCS.GCSCredentialFileName)
	orDefault(&c.S3.S3AccessKeyIDName, def.S3.S3AccessKeyIDName)
	orDefault(&c.S3.S3SecretAccessKeyName, def.S3.S3SecretAccessKeyName)
	if ke := validateObjectName("storageSpecSecretName", c.StorageSpecSecretName); ke != nil {
		return ke
	}
	if ke := validateObjectName("s3.s3CABundleConfigMap", c.S3.S3CABundleConfigMap); ke != nil {
		return ke
	}
	// These become boolean env vars of the storage initializer, which reads
	// them as Python booleans; catching a typo here beats a silent default.
	flags := []struct{ field, value string }{
		{"s3.s3UseHttps", c.S3.S3UseHttps},
		{"s3.s3VerifySSL", c.S3.S3VerifySSL},
		{"s3.s3UseVirtualBucket", c.S3.S3UseVirtualBucket},
		{"s3.s3UseAccelerate", c.S3.S3UseAccelerate},
		{"s3.s3UseAnonymousCredential", c.S3.S3UseAnonymousCredential},
	}
	for _, f := range flags {
		if ke := checkBoolString(f.field, f.value); ke != nil {
			return ke
		}
	}
	return nil
}

// checkBoolString accepts "" (unset) or a boolean written as a string.
func checkBoolString(field, value string) *KeyError {
	if value == "" {
		return nil
	}
	if _, err := strconv.ParseBool(value); err != nil {
		return &KeyError{Field: field, Problem: fmt.Sprintf("%q is not a boolean", value),
			Fix: `use "true" or "false" (quoted), or "" to leave it unset`}
	}
	return nil
}
