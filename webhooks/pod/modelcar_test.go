package pod

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/utils/ptr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

func TestOCIModels(t *testing.T) {
	shipped := shippedConfig(t) // modelcar enabled, uid 1010
	disabled := config.Default()
	native := shippedConfig(t)
	native.StorageInitializer.OCIModelMode = config.OCINative
	withTransformer := predictorPod(withURI("oci://registry.example.com/models/iris:1"))
	withTransformer.Spec.Containers = append(withTransformer.Spec.Containers, corev1.Container{Name: v1beta1.TransformerContainerName, Image: "t"})
	fetchPod := predictorPod(withURI("oci+fetch://registry.example.com/models/iris:1", v1beta1.StorageInitializerUIDAnnotation, "1337"))
	fetchPod.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "registry"}}
	noServer := predictorPod(withURI("oci://r/m:1"))
	noServer.Spec.Containers[0].Name = "server"
	runMutateCases(t, []mutateCase{{
		name: "modelcar from the config", pod: predictorPod(withURI("oci://registry.example.com/models/iris:1")), in: Inputs{Config: shipped},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, []string{v1beta1.PredictorContainerName, "modelcar"}, names(pod.Spec.Containers))
			assert.Equal(t, []string{"modelcar-init"}, names(pod.Spec.InitContainers))
			assert.Equal(t, ptr.To(true), pod.Spec.ShareProcessNamespace)
			user := pod.Spec.Containers[0]
			assert.Equal(t, []corev1.EnvVar{env("MODEL_INIT_MODE", "async")}, user.Env)
			assert.Equal(t, []corev1.VolumeMount{{Name: "kserve-provision-location", MountPath: "/mnt"}}, user.VolumeMounts)
			assert.Equal(t, ptr.To(int64(1010)), user.SecurityContext.RunAsUser)
			car := pod.Spec.Containers[1]
			resources := shipped.StorageInitializer.ModelcarResources()
			want := corev1.Container{
				Name: "modelcar", Image: "registry.example.com/models/iris:1",
				Args:         []string{"sh", "-c", "ln -sf /proc/$$$$/root/models /mnt/models && sleep infinity"},
				VolumeMounts: []corev1.VolumeMount{{Name: "kserve-provision-location", MountPath: "/mnt"}},
				Resources:    resources, TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
				SecurityContext: &corev1.SecurityContext{RunAsUser: ptr.To(int64(1010))},
			}
			assertSameContainer(t, want, car)
			assert.Equal(t, "registry.example.com/models/iris:1", pod.Spec.InitContainers[0].Image)
			assert.True(t, equality.Semantic.DeepEqual(resources, pod.Spec.InitContainers[0].Resources))
			assert.NotNil(t, volume(t, pod, "kserve-provision-location").EmptyDir)
		},
	}, {
		name: "modelcar for the transformer too", pod: withTransformer, in: Inputs{Config: shipped},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, []string{v1beta1.PredictorContainerName, v1beta1.TransformerContainerName, "modelcar"}, names(pod.Spec.Containers))
			assert.Equal(t, []corev1.EnvVar{env("MODEL_INIT_MODE", "async")}, pod.Spec.Containers[1].Env)
		},
	}, {
		name: "an explicit modelcar URI does not need the config switch", pod: predictorPod(withURI("oci+modelcar://r/m:1")), in: Inputs{Config: disabled},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, "r/m:1", container(t, pod.Spec.Containers, "modelcar").Image)
			assert.Nil(t, pod.Spec.Containers[0].SecurityContext, "no uidModelcar by default")
		},
	}, {
		name: "bare oci:// with OCI support off is downloaded", pod: predictorPod(withURI("oci://r/m:1")), in: Inputs{Config: disabled},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, []string{v1beta1.StorageInitializerContainerName}, names(pod.Spec.InitContainers))
			assert.Equal(t, []string{"oci://r/m:1", "/mnt/models"}, pod.Spec.InitContainers[0].Args)
		},
	}, {
		name: "native image volume", pod: predictorPod(withURI("oci://r/m:1")), in: Inputs{Config: native},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Empty(t, pod.Spec.InitContainers)
			assert.Equal(t, []corev1.Volume{{Name: "mnt-models", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "r/m:1", PullPolicy: corev1.PullIfNotPresent}}}}, pod.Spec.Volumes)
			assert.Equal(t, []corev1.VolumeMount{{Name: "mnt-models", MountPath: "/mnt/models", SubPath: "models", ReadOnly: true}}, pod.Spec.Containers[0].VolumeMounts)
		},
	}, {
		name: "fetch into an emptyDir with the pull secret; the Istio user applies on the first pass", pod: fetchPod, in: Inputs{Config: shipped},
		check: func(t *testing.T, pod *corev1.Pod) {
			require.Equal(t, []string{v1beta1.StorageInitializerContainerName}, names(pod.Spec.InitContainers))
			init := pod.Spec.InitContainers[0]
			assert.Equal(t, []string{"oci://registry.example.com/models/iris:1", "/mnt/models"}, init.Args)
			assert.Equal(t, []corev1.EnvVar{env("KSERVE_OCI_DOCKER_CONFIG", "/mnt/oci-fetch-auth/config.json")}, init.Env)
			assert.Equal(t, []corev1.VolumeMount{{Name: "kserve-oci-fetch-docker-config", MountPath: "/mnt/oci-fetch-auth", ReadOnly: true}, {Name: "mnt-models", MountPath: "/mnt/models"}}, init.VolumeMounts)
			assert.Equal(t, ptr.To(int64(1337)), init.SecurityContext.RunAsUser)
			assert.Equal(t, "registry", volume(t, pod, "kserve-oci-fetch-docker-config").Secret.SecretName)
			assert.Equal(t, []corev1.VolumeMount{{Name: "mnt-models", MountPath: "/mnt/models"}}, pod.Spec.Containers[0].VolumeMounts)
		},
	}, {
		name: "an unknown OCI mode", pod: predictorPod(withURI("oci+magic://r/m:1")), in: Inputs{Config: shipped},
		wantErr: `storage URI "oci+magic://r/m:1" asks for OCI mode "magic", which does not exist`,
	}, {
		name: "no serving container", pod: noServer, in: Inputs{Config: shipped},
		wantErr: `the pod has no container named "kserve-container" or "worker-container"`,
	}})
}
