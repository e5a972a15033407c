package pod

import (
	"fmt"
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// ociModeFor tells how an OCI model URI is materialised, and its image: an
// explicit oci+{mode}:// wins, a bare oci:// follows the config. OCIDisabled
// means the URI is not an OCI one the OCI step handles (a bare oci:// with
// OCI support off is downloaded by the storage initializer instead).
func ociModeFor(uri string, cfg *config.StorageInitializerConfig) (config.OCIModelMode, string, error) {
	if rest, ok := strings.CutPrefix(uri, ociScheme); ok {
		return cfg.EffectiveOCIModelMode(), rest, nil
	}
	rest, ok := strings.CutPrefix(uri, "oci+")
	if !ok {
		return config.OCIDisabled, "", nil
	}
	mode, image, ok := strings.Cut(rest, "://")
	if !ok || mode == "" {
		return config.OCIDisabled, "", nil
	}
	switch m := config.OCIModelMode(mode); m {
	case config.OCIModelcar, config.OCINative, config.OCIFetch:
		return m, image, nil
	}
	return config.OCIDisabled, "", fmt.Errorf("storage URI %q asks for OCI mode %q, which does not exist; use oci://, oci+modelcar://, oci+native:// or oci+fetch://", uri, mode)
}

// injectOCIModel makes an OCI image's /models available at /mnt/models in
// the model server (and the transformer) by the resolved mode. Every mode is
// idempotent: the webhook may be invoked again on its own output.
func injectOCIModel(pod *corev1.Pod, in *Inputs) error {
	if pod.Annotations[v1beta1.StorageInitializerSourceURIAnnotation] == "" {
		return nil
	}
	uri, err := sourceURI(pod)
	if err != nil {
		return err
	}
	mode, image, err := ociModeFor(uri, &in.Config.StorageInitializer)
	if err != nil || mode == config.OCIDisabled {
		return err
	}
	if err := in.needKeys(config.KeyStorageInitializer); err != nil {
		return err
	}
	user, err := modelContainer(pod, uri)
	if err != nil {
		return err
	}
	targets := []string{user.Name}
	if podspec.Container(pod.Spec.Containers, v1beta1.TransformerContainerName) != nil {
		targets = append(targets, v1beta1.TransformerContainerName)
	}
	cfg := &in.Config.StorageInitializer
	for _, target := range targets {
		switch mode {
		case config.OCINative:
			err = configureOCINative(pod, target, image)
		case config.OCIFetch:
			configureOCIFetch(pod, target, ociScheme+image, cfg, in.SystemNamespace)
		default:
			configureModelcar(pod, target, image, cfg)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// configureModelcar runs the model image as a sidecar whose root filesystem
// the target reaches through /proc (hence the shared process namespace): the
// sidecar links /mnt/models to its /models in a shared emptyDir at /mnt. A
// modelcar-init container pulls and checks the image before the server starts.
func configureModelcar(pod *corev1.Pod, target, image string, cfg *config.StorageInitializerConfig) {
	c := podspec.Container(pod.Spec.Containers, target)
	parent := parentDir(v1beta1.DefaultModelMountPath)
	// The server must wait for the link, which appears once the sidecar runs.
	podspec.SetEnvValue(c, envModelInitMode, "async")
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: provisionVolumeName,
		VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	podspec.AddMount(c, corev1.VolumeMount{Name: provisionVolumeName, MountPath: parent})
	if cfg.UIDModelcar != nil {
		setRunAsUser(c, *cfg.UIDModelcar)
	}
	if podspec.Container(pod.Spec.Containers, modelcarContainerName) == nil {
		pod.Spec.Containers = append(pod.Spec.Containers, modelcarSidecar(image, parent, cfg))
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, modelcarInit(image, cfg))
	}
	share := true
	pod.Spec.ShareProcessNamespace = &share
}

func modelcarSidecar(image, parent string, cfg *config.StorageInitializerConfig) corev1.Container {
	c := corev1.Container{
		Name:         modelcarContainerName,
		Image:        image,
		VolumeMounts: []corev1.VolumeMount{{Name: provisionVolumeName, MountPath: parent}},
		// "$$" is Kubernetes' escape for "$": the shell sees $$, its own PID.
		Args:                     []string{"sh", "-c", "ln -sf /proc/$$$$/root/models " + v1beta1.DefaultModelMountPath + " && sleep infinity"},
		Resources:                cfg.ModelcarResources(),
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
	}
	if cfg.UIDModelcar != nil {
		uid := *cfg.UIDModelcar
		c.SecurityContext = &corev1.SecurityContext{RunAsUser: &uid}
	}
	return c
}

func modelcarInit(image string, cfg *config.StorageInitializerConfig) corev1.Container {
	check := "echo 'Pre-fetching modelcar " + image + ": ' && [ -d /models ] && [ \"$$(ls -A /models)\" ] && " +
		"echo 'OK ... Prefetched and valid (/models exists)' || " +
		"(echo 'NOK ... Prefetched but modelcar is invalid (/models does not exist or is empty)' && exit 1)"
	return corev1.Container{
		Name:                     modelcarInitContainerName,
		Image:                    image,
		Args:                     []string{"sh", "-c", check},
		Resources:                cfg.ModelcarResources(),
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
	}
}

// parentDir is the directory that holds p, "/" at the top.
func parentDir(p string) string {
	d := path.Dir(p)
	if d == "." {
		return "/"
	}
	return d
}
