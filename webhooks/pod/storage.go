package pod

import (
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// storagePlan is what the storage step will do for a pod, decided from the
// pod's annotations alone, so the Mutator knows what to read beforehand.
type storagePlan struct {
	// uri is the model's source, after the local-model rewrite.
	uri string
	// readOnly mounts the model read-only in the serving containers.
	readOnly bool
	// spec is the predictor's storage: block; nil means the credentials come
	// from the pod's service account.
	spec *credentials.StorageSpec
	// containerName is the ClusterStorageContainer the predictor named, or "".
	containerName string
}

func (p *storagePlan) pvc() bool { return strings.HasPrefix(p.uri, pvcScheme) }

// needsDownload: anything but a PVC is downloaded by an init container.
func (p *storagePlan) needsDownload() bool { return !p.pvc() }

// planStorage returns nil when the storage step has nothing to do: no source
// URI, the model puller (agent) provides the model, the storage initializer is
// already there (a reinvocation), or an OCI step materialises the model.
func planStorage(pod *corev1.Pod, cfg *config.Config) (*storagePlan, error) {
	uri := pod.Annotations[v1beta1.StorageInitializerSourceURIAnnotation]
	if uri == "" {
		return nil, nil
	}
	if _, ok := pod.Annotations[v1beta1.AgentInternalAnnotation]; ok {
		return nil, nil
	}
	if podspec.Container(pod.Spec.InitContainers, v1beta1.StorageInitializerContainerName) != nil {
		return nil, nil
	}
	uri, err := sourceURI(pod)
	if err != nil {
		return nil, err
	}
	mode, _, err := ociModeFor(uri, &cfg.StorageInitializer)
	if err != nil || mode != config.OCIDisabled {
		return nil, err
	}
	plan := &storagePlan{
		uri:           uri,
		readOnly:      pod.Annotations[v1beta1.StorageReadonlyAnnotation] != "false",
		containerName: pod.Annotations[v1beta1.StorageContainerNameAnnotation],
	}
	if pod.Annotations[v1beta1.StorageSpecAnnotation] == "true" {
		spec, err := storageSpecFromAnnotations(pod.Annotations)
		if err != nil {
			return nil, err
		}
		plan.spec = spec
	}
	return plan, nil
}

// sourceURI is the model's source URI; a pod on a node group with the model
// cached (label localmodel) reads it from the cache's PVC instead.
func sourceURI(pod *corev1.Pod) (string, error) {
	uri := pod.Annotations[v1beta1.StorageInitializerSourceURIAnnotation]
	if _, ok := pod.Labels[v1beta1.LocalModelLabel]; !ok {
		return uri, nil
	}
	claim := pod.Annotations[v1beta1.LocalModelPVCNameInternalAnnotation]
	if claim == "" {
		return "", fmt.Errorf("the pod has label %q but no annotation %q naming the claim of the model cache; the InferenceService controller writes both, so let it recreate the pod",
			v1beta1.LocalModelLabel, v1beta1.LocalModelPVCNameInternalAnnotation)
	}
	cached := pod.Annotations[v1beta1.LocalModelSourceURIInternalAnnotation]
	if cached == "" || !v1alpha1.MatchStorageURI(cached, uri) {
		return "", fmt.Errorf("the pod has label %q but its model %q is not under the cached model %q (annotation %q); let the InferenceService controller recreate the pod",
			v1beta1.LocalModelLabel, uri, cached, v1beta1.LocalModelSourceURIInternalAnnotation)
	}
	rest := strings.TrimPrefix(strings.TrimSuffix(uri, "/"), strings.TrimSuffix(cached, "/"))
	return pvcScheme + claim + "/models/" + v1alpha1.GetStorageKey(cached) + rest, nil
}

func storageSpecFromAnnotations(a map[string]string) (*credentials.StorageSpec, error) {
	spec := &credentials.StorageSpec{Key: a[v1beta1.StorageSpecKeyAnnotation]}
	if raw, ok := a[v1beta1.StorageSpecParamAnnotation]; ok && raw != "" {
		if err := json.Unmarshal([]byte(raw), &spec.Parameters); err != nil {
			return nil, fmt.Errorf("annotation %q is not a JSON object of strings (%v); the InferenceService controller writes it from storage.parameters, so fix those",
				v1beta1.StorageSpecParamAnnotation, err)
		}
	}
	return spec, nil
}

// injectStorageInitializer gives the serving containers the model at
// /mnt/models: a PVC mounted directly, or an emptyDir filled by the
// storage-initializer init container.
func injectStorageInitializer(pod *corev1.Pod, in *Inputs) error {
	plan, err := planStorage(pod, in.Config)
	if err != nil || plan == nil {
		return err
	}
	user, err := modelContainer(pod, plan.uri)
	if err != nil {
		return err
	}
	csc, err := selectStorageContainer(in.StorageContainers, plan.uri, plan.containerName)
	if err != nil {
		return err
	}
	if plan.pvc() {
		return mountPVC(pod, user, plan)
	}
	if err := in.needKeys(config.KeyStorageInitializer, config.KeyCredentials); err != nil {
		return err
	}
	init := newStorageInitializer(&in.Config.StorageInitializer, plan.uri)
	mountModelVolume(pod, user, plan.readOnly, &init)
	rewriteStorageURIEnv(user)
	if err := addStorageCredentials(pod, in, plan, &init); err != nil {
		return err
	}
	bundle := planCABundle(&in.Config.StorageInitializer, pod.Namespace, in.SystemNamespace, &init)
	if csc != nil {
		if err := mergeStorageContainer(&init, csc.Container); err != nil {
			return err
		}
	}
	bundle.apply(pod, &init)
	addHuggingFaceDefaults(&init)
	applyConfidential(pod.Annotations, &init)
	pod.Spec.InitContainers = append(pod.Spec.InitContainers, init)
	return nil
}

// modelContainer is the container that serves the model: kserve-container,
// or worker-container in a multi-node worker pod.
func modelContainer(pod *corev1.Pod, uri string) (*corev1.Container, error) {
	if c := podspec.Container(pod.Spec.Containers, v1beta1.PredictorContainerName); c != nil {
		return c, nil
	}
	if c := podspec.Container(pod.Spec.Containers, v1beta1.WorkerContainerName); c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("the pod has no container named %q or %q to receive the model %q; name the serving container %q",
		v1beta1.PredictorContainerName, v1beta1.WorkerContainerName, uri, v1beta1.PredictorContainerName)
}

func newStorageInitializer(cfg *config.StorageInitializerConfig, uri string) corev1.Container {
	image := cfg.Image
	if image == "" {
		image = config.DefaultStorageInitializerImage
	}
	return corev1.Container{
		Name:                     v1beta1.StorageInitializerContainerName,
		Image:                    image,
		Args:                     []string{uri, v1beta1.DefaultModelMountPath},
		Resources:                cfg.Resources(),
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
	}
}

// mountModelVolume shares the download directory: written by the init
// container, read by the serving and transformer containers.
func mountModelVolume(pod *corev1.Pod, user *corev1.Container, readOnly bool, init *corev1.Container) {
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: provisionVolumeName,
		VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	mount := corev1.VolumeMount{Name: provisionVolumeName, MountPath: v1beta1.DefaultModelMountPath, ReadOnly: readOnly}
	podspec.AddMount(user, mount)
	if t := podspec.Container(pod.Spec.Containers, v1beta1.TransformerContainerName); t != nil {
		podspec.AddMount(t, mount)
	}
	mount.ReadOnly = false
	podspec.AddMount(init, mount)
}

// mountPVC mounts the claim at /mnt/models with the URI's path as subPath.
func mountPVC(pod *corev1.Pod, user *corev1.Container, plan *storagePlan) error {
	claim, subPath, _ := strings.Cut(strings.TrimPrefix(plan.uri, pvcScheme), "/")
	if claim == "" {
		return fmt.Errorf("storage URI %q names no claim; write it as pvc://{claim}/{path}", plan.uri)
	}
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: pvcSourceVolumeName, VolumeSource: corev1.VolumeSource{
		// Read-only on the volume too, so no container of the pod can write the model.
		PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim, ReadOnly: plan.readOnly},
	}})
	mount := corev1.VolumeMount{Name: pvcSourceVolumeName, MountPath: v1beta1.DefaultModelMountPath, SubPath: subPath, ReadOnly: plan.readOnly}
	podspec.AddMount(user, mount)
	if t := podspec.Container(pod.Spec.Containers, v1beta1.TransformerContainerName); t != nil {
		podspec.AddMount(t, mount)
	}
	rewriteStorageURIEnv(user)
	return nil
}

// rewriteStorageURIEnv points a custom container's STORAGE_URI at the local
// copy, because the container asked for the download through it.
func rewriteStorageURIEnv(user *corev1.Container) {
	for i := range user.Env {
		if user.Env[i].Name == v1beta1.StorageURIEnvVar && user.Env[i].Value != "" {
			user.Env[i].Value = v1beta1.DefaultModelMountPath
		}
	}
}

// addStorageCredentials: a storage: block describes its store in the
// storage-config secret; otherwise the pod's service account provides them.
func addStorageCredentials(pod *corev1.Pod, in *Inputs, plan *storagePlan, init *corev1.Container) error {
	if plan.spec == nil {
		return in.StorageCredentials.Apply(&in.Config.Credentials, init, &pod.Spec.Volumes)
	}
	secretName := in.Config.Credentials.StorageSecretName(pod.Annotations)
	return credentials.ApplyStorageSpec(*plan.spec, pod.Namespace, secretName, in.StorageConfigSecret, init)
}
