package pod

import (
	"path"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// caBundle is the ConfigMap of extra CA certificates mounted into the storage
// initializer; nil when there is none.
type caBundle struct {
	configMap, mountPath string
}

// planCABundle decides before the storage container is merged, from the
// config and the S3 variables the credentials set: the cluster's bundle is
// copied into each workload namespace as global-ca-bundle, and an S3 secret
// may name its own bundle and file.
func planCABundle(cfg *config.StorageInitializerConfig, namespace, systemNamespace string, init *corev1.Container) *caBundle {
	s3ConfigMap, hasS3ConfigMap := podspec.EnvValue(init, envAWSCABundleConfigMap)
	if cfg.CABundleConfigMapName == "" && !hasS3ConfigMap {
		return nil
	}
	b := &caBundle{configMap: cfg.CABundleConfigMapName, mountPath: cfg.CABundleVolumeMountPath}
	if namespace != systemNamespace {
		b.configMap = globalCABundleConfigMapName
	}
	if b.mountPath == "" {
		b.mountPath = config.DefaultCABundleVolumeMountPath
	}
	if hasS3ConfigMap {
		b.configMap = s3ConfigMap
	}
	if file, ok := podspec.EnvValue(init, envAWSCABundle); ok && file != "" {
		b.mountPath = path.Dir(file)
	}
	return b
}

// apply runs after the merge, and keeps variables the storage container set.
func (b *caBundle) apply(pod *corev1.Pod, init *corev1.Container) {
	if b == nil {
		return
	}
	podspec.AddEnvIfAbsent(init,
		corev1.EnvVar{Name: envCABundleConfigMapName, Value: b.configMap},
		corev1.EnvVar{Name: envCABundleMountPath, Value: b.mountPath})
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: caBundleVolumeName, VolumeSource: corev1.VolumeSource{
		ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: b.configMap}},
	}})
	podspec.AddMount(init, corev1.VolumeMount{Name: caBundleVolumeName, MountPath: b.mountPath, ReadOnly: true})
}

// addHuggingFaceDefaults speeds up Hugging Face downloads unless the storage
// container chose otherwise.
func addHuggingFaceDefaults(init *corev1.Container) {
	podspec.AddEnvIfAbsent(init,
		corev1.EnvVar{Name: "HF_HUB_ENABLE_HF_TRANSFER", Value: "1"},
		corev1.EnvVar{Name: "HF_XET_HIGH_PERFORMANCE", Value: "1"},
		corev1.EnvVar{Name: "HF_XET_NUM_CONCURRENT_RANGE_GETS", Value: "8"})
}

// applyConfidential tells the storage initializer to fetch the model's key
// for confidential serving.
func applyConfidential(annotations map[string]string, init *corev1.Container) {
	if annotations[v1beta1.ConfidentialEnabledInternalAnnotation] != "true" {
		return
	}
	podspec.SetEnvValue(init, envConfidentialEnabled, "true")
	if id := annotations[v1beta1.ConfidentialResourceIDInternalAnnotation]; id != "" {
		podspec.SetEnvValue(init, envConfidentialResourceID, id)
	}
}
