package pod

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// modelVolumeName names the volume of a model path ("/mnt/models" ->
// "mnt-models"), as KServe names the volumes of its native and fetch modes.
func modelVolumeName(p, fallback string) string {
	if name := strings.ReplaceAll(strings.Trim(p, "/"), "/", "-"); name != "" {
		return name
	}
	return fallback
}

// configureOCINative mounts the image as a Kubernetes image volume (the
// ImageVolume feature); the model is the image's /models directory.
func configureOCINative(pod *corev1.Pod, target, image string) error {
	c := podspec.Container(pod.Spec.Containers, target)
	name := modelVolumeName(v1beta1.DefaultModelMountPath, "oci-model")
	for _, m := range c.VolumeMounts {
		if m.MountPath == v1beta1.DefaultModelMountPath && m.Name != name {
			return fmt.Errorf("container %q already mounts volume %q at %s, where the OCI model goes; remove that mount or serve the model another way",
				target, m.Name, v1beta1.DefaultModelMountPath)
		}
	}
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{
		Image: &corev1.ImageVolumeSource{Reference: image, PullPolicy: corev1.PullIfNotPresent},
	}})
	podspec.AddMount(c, corev1.VolumeMount{Name: name, MountPath: v1beta1.DefaultModelMountPath, SubPath: "models", ReadOnly: true})
	return nil
}

// configureOCIFetch has the storage initializer pull the image's model layers
// into an emptyDir, authenticating with the pod's first image pull secret.
func configureOCIFetch(pod *corev1.Pod, target, uri string, cfg *config.StorageInitializerConfig, systemNamespace string) {
	init := podspec.Container(pod.Spec.InitContainers, v1beta1.StorageInitializerContainerName)
	if init == nil {
		c := newStorageInitializer(cfg, uri)
		addRegistryCredentials(pod, &c)
		if cfg.CABundleConfigMapName != "" {
			planCABundle(cfg, pod.Namespace, systemNamespace, &c).apply(pod, &c)
		}
		if cfg.OCIInsecureRegistry {
			podspec.SetEnvValue(&c, envOCIInsecureRegistry, "true")
		}
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
		init = &pod.Spec.InitContainers[len(pod.Spec.InitContainers)-1]
	} else if !hasArgPair(init.Args, uri, v1beta1.DefaultModelMountPath) {
		init.Args = append(init.Args, uri, v1beta1.DefaultModelMountPath)
	}
	name := modelVolumeName(v1beta1.DefaultModelMountPath, "oci-fetch-model")
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: name,
		VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	mount := corev1.VolumeMount{Name: name, MountPath: v1beta1.DefaultModelMountPath}
	podspec.AddMount(init, mount)
	podspec.AddMount(podspec.Container(pod.Spec.Containers, target), mount)
}

// addRegistryCredentials projects the pod's first image pull secret as a
// docker config.json, readable only by the container's user.
func addRegistryCredentials(pod *corev1.Pod, c *corev1.Container) {
	if len(pod.Spec.ImagePullSecrets) == 0 || pod.Spec.ImagePullSecrets[0].Name == "" {
		return
	}
	mode := int32(0o400)
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: ociFetchDockerConfigVolume, VolumeSource: corev1.VolumeSource{
		Secret: &corev1.SecretVolumeSource{
			SecretName:  pod.Spec.ImagePullSecrets[0].Name,
			DefaultMode: &mode,
			Items:       []corev1.KeyToPath{{Key: corev1.DockerConfigJsonKey, Path: "config.json"}},
		},
	}})
	podspec.AddMount(c, corev1.VolumeMount{Name: ociFetchDockerConfigVolume, MountPath: ociFetchDockerConfigDir, ReadOnly: true})
	podspec.SetEnvValue(c, envOCIDockerConfig, ociFetchDockerConfigDir+"/config.json")
}

func hasArgPair(args []string, uri, p string) bool {
	for i := 0; i+1 < len(args); i += 2 {
		if args[i] == uri && args[i+1] == p {
			return true
		}
	}
	return false
}
