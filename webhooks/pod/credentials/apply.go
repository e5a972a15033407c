package credentials

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// Kind is the storage provider a secret holds credentials for, told by its
// data keys as KServe tells it.
type Kind string

// The kinds, in the order a secret's data keys are tested.
const (
	KindS3          Kind = "s3"
	KindGCS         Kind = "gcs"
	KindAzure       Kind = "azure"
	KindAzureKey    Kind = "azure-storage-access-key"
	KindHTTPS       Kind = "https"
	KindHDFS        Kind = "hdfs"
	KindHuggingFace Kind = "huggingface"
	KindModelScope  Kind = "modelscope"
	// KindUnknown secrets are skipped: a service account often lists secrets
	// that have nothing to do with storage (image pull secrets, tokens).
	KindUnknown Kind = ""
)

// Data keys that identify a provider.
const (
	azureLegacyClientID   = "AZ_CLIENT_ID"
	azureClientID         = "AZURE_CLIENT_ID"
	azureAccessToken      = "AZURE_ACCESS_TOKEN"
	azureStorageAccessKey = "AZURE_STORAGE_ACCESS_KEY"
	httpsHostKey          = "https-host"
	httpsHeadersKey       = "headers"
	hdfsNamenodeKey       = "HDFS_NAMENODE"
	hfTokenKey            = "HF_TOKEN"
	modelScopeTokenKey    = "MODELSCOPE_API_TOKEN"
)

// KindOf tells which provider a secret is for.
func KindOf(cfg *config.CredentialsConfig, s *corev1.Secret) Kind {
	has := func(key string) bool { _, ok := s.Data[key]; return ok }
	switch {
	case has(s3SecretKeyName(cfg)):
		return KindS3
	case has(gcsFileName(cfg)):
		return KindGCS
	case has(azureLegacyClientID), has(azureClientID), has(azureAccessToken):
		return KindAzure
	case has(azureStorageAccessKey):
		return KindAzureKey
	case has(httpsHostKey):
		return KindHTTPS
	case has(hdfsNamenodeKey):
		return KindHDFS
	case has(hfTokenKey):
		return KindHuggingFace
	case has(modelScopeTokenKey):
		return KindModelScope
	}
	return KindUnknown
}

// Apply adds the set's credentials to c, and the volumes they need to
// volumes: the S3 settings of an IRSA account first, then each secret by its
// kind. A secret that does not exist is an error that says who references it.
// Applying the same set twice changes nothing.
func (s Set) Apply(cfg *config.CredentialsConfig, c *corev1.Container, volumes *[]corev1.Volume) error {
	if s.ServiceAccount != nil {
		if _, ok := s.ServiceAccount.Annotations[v1beta1.AWSRoleARNAnnotation]; ok {
			setAll(c, s3Settings(s.ServiceAccount.Annotations, nil, &cfg.S3))
		}
	}
	for _, ref := range s.Secrets {
		if ref.Object == nil {
			return s.missing(ref.Name)
		}
		applySecret(cfg, ref.Object, c, volumes)
	}
	return nil
}

func applySecret(cfg *config.CredentialsConfig, s *corev1.Secret, c *corev1.Container, volumes *[]corev1.Volume) {
	switch KindOf(cfg, s) {
	case KindS3:
		setAll(c, s3SecretEnv(cfg, s))
	case KindGCS:
		mountSecret(c, volumes, s.Name, gcsVolumeName, gcsMountPath)
		podspec.SetEnvValue(c, gcsCredentialsEnv, gcsMountPath+gcsFileName(cfg))
	case KindAzure:
		setAll(c, azureEnv(s))
	case KindAzureKey:
		podspec.SetEnv(c, podspec.SecretEnv(azureStorageAccessKey, s.Name, azureStorageAccessKey))
	case KindHTTPS:
		setAll(c, httpsEnv(s))
	case KindHDFS:
		mountSecret(c, volumes, s.Name, hdfsVolumeName, hdfsMountPath)
	case KindHuggingFace:
		podspec.SetEnv(c, podspec.SecretEnv(hfTokenKey, s.Name, hfTokenKey))
	case KindModelScope:
		podspec.SetEnv(c, podspec.SecretEnv(modelScopeTokenKey, s.Name, modelScopeTokenKey))
	}
}

func setAll(c *corev1.Container, vars []corev1.EnvVar) {
	for _, e := range vars {
		podspec.SetEnv(c, e)
	}
}

// mountSecret mounts the whole secret read-only. Only the first secret of a
// kind gets the volume, as in KServe, because the mount path is fixed.
func mountSecret(c *corev1.Container, volumes *[]corev1.Volume, secret, volume, path string) {
	podspec.AddVolume(volumes, corev1.Volume{Name: volume, VolumeSource: corev1.VolumeSource{
		Secret: &corev1.SecretVolumeSource{SecretName: secret},
	}})
	podspec.AddMount(c, corev1.VolumeMount{Name: volume, MountPath: path, ReadOnly: true})
}
