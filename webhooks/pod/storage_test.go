package pod

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

// wantInitContainer is the storage initializer the shipped config and the
// default ClusterStorageContainer produce for uri with these variables.
func wantInitContainer(t *testing.T, uri string, vars []corev1.EnvVar, mounts ...corev1.VolumeMount) corev1.Container {
	cfg := shippedConfig(t)
	return corev1.Container{
		Name:                     v1beta1.StorageInitializerContainerName,
		Image:                    "kserve/storage-initializer:latest",
		ImagePullPolicy:          corev1.PullIfNotPresent,
		Args:                     []string{uri, "/mnt/models"},
		Resources:                cfg.StorageInitializer.Resources(),
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		Env:                      vars,
		VolumeMounts:             append([]corev1.VolumeMount{{Name: "kserve-provision-location", MountPath: "/mnt/models"}}, mounts...),
	}
}

func assertSameContainer(t *testing.T, want, got corev1.Container) {
	t.Helper()
	if !equality.Semantic.DeepEqual(want, got) {
		assert.Equal(t, want, got)
	}
}

// expectInit checks the only init container against want and the model
// volume on the serving container.
func expectInit(want func(t *testing.T) corev1.Container, volumes ...string) func(*testing.T, *corev1.Pod) {
	return func(t *testing.T, pod *corev1.Pod) {
		require.Len(t, pod.Spec.InitContainers, 1)
		assertSameContainer(t, want(t), pod.Spec.InitContainers[0])
		user := container(t, pod.Spec.Containers, v1beta1.PredictorContainerName)
		assert.Equal(t, []corev1.VolumeMount{{Name: "kserve-provision-location", MountPath: "/mnt/models", ReadOnly: true}}, user.VolumeMounts)
		assert.Equal(t, append([]string{"kserve-provision-location"}, volumes...), volumeNames(pod))
		assert.NotNil(t, volume(t, pod, "kserve-provision-location").EmptyDir)
	}
}

// credentialSecrets are one secret per provider, as users write them for KServe.
type credentialSecrets struct {
	s3, gcs, https, hdfs, hf, ms, azure, azureKey, unrelated *corev1.Secret
}

func newCredentialSecrets() credentialSecrets {
	return credentialSecrets{
		s3: secret("s3-creds", map[string]string{"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s"}, map[string]string{
			v1beta1.S3EndpointAnnotation: "minio.models:9000", v1beta1.S3UseHTTPSAnnotation: "0", v1beta1.S3RegionAnnotation: "us-east-1",
			v1beta1.S3VerifySSLAnnotation: "false",
		}),
		gcs:       secret("gcs-creds", map[string]string{"gcloud-application-credentials.json": "{}"}, nil),
		https:     secret("https-creds", map[string]string{"https-host": "models.example.com", "headers": `{"Authorization": "Bearer x"}`}, nil),
		hdfs:      secret("hdfs-creds", map[string]string{"HDFS_NAMENODE": "nn:8020", "HDFS_ROOTPATH": "/"}, nil),
		hf:        secret("hf-creds", map[string]string{"HF_TOKEN": "hf_x"}, nil),
		ms:        secret("ms-creds", map[string]string{"MODELSCOPE_API_TOKEN": "m"}, nil),
		azure:     secret("azure-creds", map[string]string{"AZ_CLIENT_ID": "c", "AZURE_CLIENT_SECRET": "s", "AZURE_TENANT_ID": "t"}, nil),
		azureKey:  secret("azure-key", map[string]string{"AZURE_STORAGE_ACCESS_KEY": "k"}, nil),
		unrelated: secret("registry", map[string]string{".dockerconfigjson": "{}"}, nil),
	}
}

// credentialInputs uses the shipped config and storage container.
func credentialInputs(t *testing.T) func(credentials.Set) Inputs {
	cfg := shippedConfig(t)
	cscs := []v1alpha1.ClusterStorageContainer{defaultStorageContainer(t)}
	return func(set credentials.Set) Inputs {
		return Inputs{Config: cfg, StorageContainers: cscs, SystemNamespace: "kserve", StorageCredentials: set}
	}
}

func TestStorageInitializerCredentials(t *testing.T) {
	c := newCredentialSecrets()
	s3, gcs, https, hdfs, hf, ms, azure, azureKey, unrelated := c.s3, c.gcs, c.https, c.hdfs, c.hf, c.ms, c.azure, c.azureKey, c.unrelated
	in := credentialInputs(t)
	runMutateCases(t, []mutateCase{{
		name: "s3 secret with endpoint annotations",
		pod:  predictorPod(withURI("s3://models/sklearn/iris")),
		in:   in(saCredentials(nil, unrelated, s3)),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "s3://models/sklearn/iris", envs([]corev1.EnvVar{
				secretRef("AWS_ACCESS_KEY_ID", "s3-creds", "AWS_ACCESS_KEY_ID"),
				secretRef("AWS_SECRET_ACCESS_KEY", "s3-creds", "AWS_SECRET_ACCESS_KEY"),
				env("S3_USE_HTTPS", "0"), env("S3_ENDPOINT", "minio.models:9000"), env("AWS_ENDPOINT_URL", "http://minio.models:9000"),
				env("S3_VERIFY_SSL", "false"), env("AWS_DEFAULT_REGION", "us-east-1"),
			}, hfDefaults))
		}),
	}, {
		name: "gcs key file",
		pod:  predictorPod(withURI("gs://kfserving-examples/models/sklearn/1.0/model")),
		in:   in(saCredentials(nil, gcs)),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "gs://kfserving-examples/models/sklearn/1.0/model", envs([]corev1.EnvVar{
				env("GOOGLE_APPLICATION_CREDENTIALS", "/var/secrets/gcloud-application-credentials.json"),
			}, hfDefaults), corev1.VolumeMount{Name: "user-gcp-sa", MountPath: "/var/secrets/", ReadOnly: true})
		}, "user-gcp-sa"),
	}, {
		name: "https headers",
		pod:  predictorPod(withURI("https://models.example.com/iris.joblib")),
		in:   in(saCredentials(nil, https)),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "https://models.example.com/iris.joblib", envs([]corev1.EnvVar{
				secretRef("models.example.com-headers", "https-creds", "headers"),
			}, hfDefaults))
		}),
	}, {
		name: "hdfs secret volume",
		pod:  predictorPod(withURI("hdfs://nn:8020/models/iris")),
		in:   in(saCredentials(nil, hdfs)),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "hdfs://nn:8020/models/iris", hfDefaults,
				corev1.VolumeMount{Name: "hdfs-secrets", MountPath: "/var/secrets/kserve-hdfscreds", ReadOnly: true})
		}, "hdfs-secrets"),
	}, {
		name: "hugging face and modelscope tokens",
		pod:  predictorPod(withURI("hf://meta-llama/Llama-3-8B")),
		in:   in(saCredentials(nil, hf, ms)),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "hf://meta-llama/Llama-3-8B", envs([]corev1.EnvVar{
				secretRef("HF_TOKEN", "hf-creds", "HF_TOKEN"), secretRef("MODELSCOPE_API_TOKEN", "ms-creds", "MODELSCOPE_API_TOKEN"),
			}, hfDefaults))
		}),
	}, {
		name: "azure service principal with a legacy client id, and a storage key",
		pod:  predictorPod(withURI("https://acct.blob.core.windows.net/models/iris")),
		in:   in(saCredentials(nil, azure, azureKey)),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "https://acct.blob.core.windows.net/models/iris", envs([]corev1.EnvVar{
				secretRef("AZURE_TENANT_ID", "azure-creds", "AZURE_TENANT_ID"), secretRef("AZURE_CLIENT_ID", "azure-creds", "AZ_CLIENT_ID"),
				secretRef("AZURE_CLIENT_SECRET", "azure-creds", "AZURE_CLIENT_SECRET"),
				secretRef("AZURE_STORAGE_ACCESS_KEY", "azure-key", "AZURE_STORAGE_ACCESS_KEY"),
			}, hfDefaults))
		}),
	}})
}

func TestStorageInitializerServiceAccount(t *testing.T) {
	c := newCredentialSecrets()
	s3, gcs := c.s3, c.gcs
	in := credentialInputs(t)
	runMutateCases(t, []mutateCase{{
		name: "IRSA service account takes the cluster-wide S3 settings",
		pod:  predictorPod(withURI("s3://models/iris")),
		in: func() Inputs {
			cfg := shippedConfig(t)
			cfg.Credentials.S3.S3Endpoint = "https://s3.eu-west-1.amazonaws.com"
			cfg.Credentials.S3.S3Region = "eu-west-1"
			i := in(saCredentials(map[string]string{v1beta1.AWSRoleARNAnnotation: "arn:aws:iam::1:role/models"}))
			i.Config = cfg
			return i
		}(),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "s3://models/iris", envs([]corev1.EnvVar{
				env("S3_USE_HTTPS", "1"), env("S3_ENDPOINT", "s3.eu-west-1.amazonaws.com"), env("AWS_ENDPOINT_URL", "https://s3.eu-west-1.amazonaws.com"),
				env("AWS_DEFAULT_REGION", "eu-west-1"),
			}, hfDefaults))
		}),
	}, {
		name: "a missing service account is not an error",
		pod:  predictorPod(withURI("s3://public/iris")),
		in:   in(credentials.Set{Namespace: testNamespace, ServiceAccountName: "models-sa"}),
		check: expectInit(func(t *testing.T) corev1.Container {
			return wantInitContainer(t, "s3://public/iris", hfDefaults)
		}),
	}, {
		name:    "a secret the service account lists must exist",
		pod:     predictorPod(withURI("s3://models/iris")),
		in:      in(func() credentials.Set { s := saCredentials(nil, s3); s.Secrets[0].Object = nil; return s }()),
		wantErr: `service account "models-sa" references secret "s3-creds" which does not exist in namespace "models"; create it or remove it from the service account`,
	}, {
		name: "the storage-secret-name annotation names the only secret",
		pod:  predictorPod(withURI("gs://models/iris", v1beta1.StorageSecretNameAnnotation, "gcs-creds")),
		in: in(credentials.Set{Namespace: testNamespace, ServiceAccountName: "models-sa", Annotation: v1beta1.StorageSecretNameAnnotation,
			Secrets: []credentials.Secret{{Name: "gcs-creds", Object: gcs}}}),
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, []corev1.EnvVar{env("GOOGLE_APPLICATION_CREDENTIALS", "/var/secrets/gcloud-application-credentials.json")},
				pod.Spec.InitContainers[0].Env[:1])
		},
	}, {
		name: "an annotated secret that does not exist",
		pod:  predictorPod(withURI("gs://models/iris", v1beta1.StorageSecretNameAnnotation, "nope")),
		in: in(credentials.Set{Namespace: testNamespace, ServiceAccountName: "models-sa", Annotation: v1beta1.StorageSecretNameAnnotation,
			Secrets: []credentials.Secret{{Name: "nope"}}}),
		wantErr: `annotation "serving.kserve.io/storageSecretName" names secret "nope" which does not exist in namespace "models"`,
	}})
}

func TestStorageInitializerPVC(t *testing.T) {
	cfg := shippedConfig(t)
	check := func(claim, subPath string, readOnly bool) func(*testing.T, *corev1.Pod) {
		return func(t *testing.T, pod *corev1.Pod) {
			assert.Empty(t, pod.Spec.InitContainers)
			assert.Equal(t, claim, volume(t, pod, "kserve-pvc-source").PersistentVolumeClaim.ClaimName)
			for _, name := range []string{v1beta1.PredictorContainerName, v1beta1.TransformerContainerName} {
				assert.Equal(t, []corev1.VolumeMount{{Name: "kserve-pvc-source", MountPath: "/mnt/models", SubPath: subPath, ReadOnly: readOnly}},
					container(t, pod.Spec.Containers, name).VolumeMounts, name)
			}
		}
	}
	withTransformer := func(p *corev1.Pod) *corev1.Pod {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: v1beta1.TransformerContainerName, Image: "t"})
		return p
	}
	runMutateCases(t, []mutateCase{{
		name:  "claim with a path, read-only",
		pod:   withTransformer(predictorPod(withURI("pvc://model-store/sklearn/iris"))),
		in:    Inputs{Config: cfg},
		check: check("model-store", "sklearn/iris", true),
	}, {
		name:  "whole claim, read-write by annotation",
		pod:   withTransformer(predictorPod(withURI("pvc://model-store", v1beta1.StorageReadonlyAnnotation, "false"))),
		in:    Inputs{Config: cfg},
		check: check("model-store", "", false),
	}, {
		name:    "no claim",
		pod:     predictorPod(withURI("pvc:///models")),
		in:      Inputs{Config: cfg},
		wantErr: `storage URI "pvc:///models" names no claim`,
	}})
}

func TestStorageInitializerLocalModel(t *testing.T) {
	cfg := shippedConfig(t)
	local := func(uri, cached, claim string) *corev1.Pod {
		p := predictorPod(withURI(uri, v1beta1.LocalModelSourceURIInternalAnnotation, cached))
		if claim != "" {
			p.Annotations[v1beta1.LocalModelPVCNameInternalAnnotation] = claim
		}
		p.Labels[v1beta1.LocalModelLabel] = "llama"
		return p
	}
	key := v1alpha1.GetStorageKey("s3://models/llama")
	subPath := func(want string) func(*testing.T, *corev1.Pod) {
		return func(t *testing.T, pod *corev1.Pod) {
			assert.Empty(t, pod.Spec.InitContainers)
			assert.Equal(t, "llama-cache", volume(t, pod, "kserve-pvc-source").PersistentVolumeClaim.ClaimName)
			m := container(t, pod.Spec.Containers, v1beta1.PredictorContainerName).VolumeMounts
			require.Len(t, m, 1)
			assert.Equal(t, want, m[0].SubPath)
			assert.True(t, m[0].ReadOnly)
		}
	}
	runMutateCases(t, []mutateCase{{
		name:  "the cached model itself",
		pod:   local("s3://models/llama", "s3://models/llama", "llama-cache"),
		in:    Inputs{Config: cfg},
		check: subPath("models/" + key),
	}, {
		name:  "a path below the cached model",
		pod:   local("s3://models/llama/v1", "s3://models/llama", "llama-cache"),
		in:    Inputs{Config: cfg},
		check: subPath("models/" + key + "/v1"),
	}, {
		name:    "no claim annotation",
		pod:     local("s3://models/llama", "s3://models/llama", ""),
		in:      Inputs{Config: cfg},
		wantErr: `no annotation "internal.serving.kserve.io/localmodel-pvc-name"`,
	}, {
		name:    "a model outside the cache",
		pod:     local("s3://models/llama2", "s3://models/llama", "llama-cache"),
		in:      Inputs{Config: cfg},
		wantErr: `its model "s3://models/llama2" is not under the cached model "s3://models/llama"`,
	}})
}

func TestStorageInitializerSkipsAndPlacement(t *testing.T) {
	cfg := shippedConfig(t)
	custom := predictorPod(withURI("s3://models/iris"))
	custom.Spec.Containers[0].Env = []corev1.EnvVar{env("STORAGE_URI", "s3://models/iris")}
	worker := predictorPod(withURI("s3://models/iris"))
	worker.Spec.Containers[0].Name = v1beta1.WorkerContainerName
	noServer := predictorPod(withURI("s3://models/iris"))
	noServer.Spec.Containers[0].Name = "server"
	present := predictorPod(withURI("s3://models/iris"))
	present.Spec.InitContainers = []corev1.Container{{Name: v1beta1.StorageInitializerContainerName, Image: "mine"}}
	runMutateCases(t, []mutateCase{{
		name: "STORAGE_URI of a custom container points at the download",
		pod:  custom, in: Inputs{Config: cfg},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, []corev1.EnvVar{env("STORAGE_URI", "/mnt/models")}, pod.Spec.Containers[0].Env)
		},
	}, {
		name: "a multi-node worker receives the model",
		pod:  worker, in: Inputs{Config: cfg},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Len(t, pod.Spec.InitContainers, 1)
			assert.Len(t, container(t, pod.Spec.Containers, v1beta1.WorkerContainerName).VolumeMounts, 1)
		},
	}, {
		name: "no serving container", pod: noServer, in: Inputs{Config: cfg},
		wantErr: `the pod has no container named "kserve-container" or "worker-container"`,
	}, {
		name: "an existing storage initializer is left alone", pod: present, in: Inputs{Config: cfg},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, present.Spec.InitContainers, pod.Spec.InitContainers)
			assert.Empty(t, pod.Spec.Volumes)
		},
	}, {
		name: "the model puller provides the model instead",
		pod:  predictorPod(withURI("s3://models/iris", v1beta1.AgentInternalAnnotation, "true", v1beta1.AgentModelDirInternalAnnotation, "/mnt/models", v1beta1.AgentConfigVolumeNameInternalAnnotation, "modelconfig-sklearn-0")),
		in:   Inputs{Config: cfg},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Empty(t, pod.Spec.InitContainers)
			assert.Equal(t, []string{v1beta1.PredictorContainerName, "agent"}, names(pod.Spec.Containers))
		},
	}, {
		name: "confidential serving",
		pod: predictorPod(withURI("s3://models/iris", v1beta1.ConfidentialEnabledInternalAnnotation, "true",
			v1beta1.ConfidentialResourceIDInternalAnnotation, "kbs:///default/key/1")),
		in: Inputs{Config: cfg},
		check: func(t *testing.T, pod *corev1.Pod) {
			e := pod.Spec.InitContainers[0].Env
			assert.Equal(t, []corev1.EnvVar{env("CONFIDENTIAL_ENABLED", "true"), env("CONFIDENTIAL_RESOURCE_ID", "kbs:///default/key/1")}, e[len(e)-2:])
		},
	}, {
		name: "a rejected storageInitializer key stops the injection",
		pod:  predictorPod(withURI("s3://models/iris")),
		in: func() Inputs {
			_, errs := parseConfig(t, map[string]string{"storageInitializer": `{"cpuLimit": "lots"}`})
			return Inputs{Config: cfg, ConfigErrors: errs}
		}(),
		wantErr: `inferenceservice-config key "storageInitializer": field "cpuLimit"`,
	}})
}
