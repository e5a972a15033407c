package pod

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

const testNamespace = "models"

// shippedConfig is the inferenceservice-config fsmserve installs.
func shippedConfig(t testing.TB) *config.Config {
	t.Helper()
	cm, err := config.DefaultConfigMap()
	require.NoError(t, err)
	cfg, errs := config.FromConfigMap(cm)
	require.NoError(t, errs.Err())
	return cfg
}

// defaultStorageContainer is the ClusterStorageContainer fsmserve installs.
func defaultStorageContainer(t testing.TB) v1alpha1.ClusterStorageContainer {
	t.Helper()
	docs, err := config.DefaultManifests()
	require.NoError(t, err)
	var csc v1alpha1.ClusterStorageContainer
	require.NoError(t, yaml.Unmarshal(docs[0], &csc))
	require.Equal(t, "ClusterStorageContainer", csc.Kind)
	return csc
}

// predictorPod is a predictor pod as the controller creates it, with the
// given internal annotations.
func predictorPod(annotations map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      "sklearn-predictor-abc",
			Namespace: testNamespace,
			Labels: map[string]string{
				v1beta1.InferenceServiceLabel: "sklearn",
				v1beta1.ComponentLabel:        "predictor",
			},
			Annotations: annotations,
		},
		Spec: corev1.PodSpec{
			ServiceAccountName: "models-sa",
			Containers: []corev1.Container{{
				Name:  v1beta1.PredictorContainerName,
				Image: "kserve/sklearnserver:latest",
				Args:  []string{"--model_dir=/mnt/models"},
				Ports: []corev1.ContainerPort{{Name: "http1", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
			}},
		},
	}
}

func withURI(uri string, extra ...string) map[string]string {
	a := map[string]string{v1beta1.StorageInitializerSourceURIAnnotation: uri}
	for i := 0; i+1 < len(extra); i += 2 {
		a[extra[i]] = extra[i+1]
	}
	return a
}

func secret(name string, data map[string]string, annotations map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace, Annotations: annotations}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

// saCredentials is a "models-sa" account listing the secrets.
func saCredentials(saAnnotations map[string]string, secrets ...*corev1.Secret) credentials.Set {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "models-sa", Namespace: testNamespace, Annotations: saAnnotations}}
	set := credentials.Set{Namespace: testNamespace, ServiceAccountName: "models-sa", ServiceAccount: sa}
	for _, s := range secrets {
		sa.Secrets = append(sa.Secrets, corev1.ObjectReference{Name: s.Name})
		set.Secrets = append(set.Secrets, credentials.Secret{Name: s.Name, Object: s})
	}
	return set
}

func secretRef(name, secretName, key string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: secretName}, Key: key}}}
}

func env(name, value string) corev1.EnvVar { return corev1.EnvVar{Name: name, Value: value} }

// hfDefaults are the variables every storage initializer ends with.
var hfDefaults = []corev1.EnvVar{
	env("HF_HUB_ENABLE_HF_TRANSFER", "1"), env("HF_XET_HIGH_PERFORMANCE", "1"), env("HF_XET_NUM_CONCURRENT_RANGE_GETS", "8"),
}

func envs(parts ...[]corev1.EnvVar) []corev1.EnvVar {
	var out []corev1.EnvVar
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func container(t *testing.T, list []corev1.Container, name string) corev1.Container {
	t.Helper()
	for _, c := range list {
		if c.Name == name {
			return c
		}
	}
	require.Failf(t, "container missing", "no container %q", name)
	return corev1.Container{}
}

func volume(t *testing.T, pod *corev1.Pod, name string) corev1.Volume {
	t.Helper()
	for _, v := range pod.Spec.Volumes {
		if v.Name == name {
			return v
		}
	}
	require.Failf(t, "volume missing", "no volume %q", name)
	return corev1.Volume{}
}

func names(list []corev1.Container) []string {
	var out []string
	for _, c := range list {
		out = append(out, c.Name)
	}
	return out
}

func volumeNames(pod *corev1.Pod) []string {
	var out []string
	for _, v := range pod.Spec.Volumes {
		out = append(out, v.Name)
	}
	return out
}

// mutateCase is one row of a mutation table: the pod, the inputs, and what
// the mutated pod must look like (or the error it must fail with).
type mutateCase struct {
	name    string
	pod     *corev1.Pod
	in      Inputs
	check   func(t *testing.T, pod *corev1.Pod)
	wantErr string
}

// runMutateCases runs every row twice: the second run, on the first run's
// output, must change nothing (reinvocation).
func runMutateCases(t *testing.T, cases []mutateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := tc.pod.DeepCopy()
			err := Mutate(pod, tc.in)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			tc.check(t, pod)
			again := pod.DeepCopy()
			require.NoError(t, Mutate(again, tc.in), "second run")
			if !equality.Semantic.DeepEqual(pod, again) {
				assert.Equal(t, pod, again, "the second run changed the pod")
			}
		})
	}
}

func parseConfig(t testing.TB, data map[string]string) (*config.Config, *config.Errors) {
	t.Helper()
	return config.Parse(data)
}
