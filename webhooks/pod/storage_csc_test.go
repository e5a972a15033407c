package pod

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

func storageContainer(name, image string, disabled bool, workload v1alpha1.WorkloadType, formats ...v1alpha1.SupportedUriFormat) v1alpha1.ClusterStorageContainer {
	c := v1alpha1.ClusterStorageContainer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.StorageContainerSpec{
			Container:           corev1.Container{Name: "storage-initializer", Image: image, Env: []corev1.EnvVar{env("HF_HUB_ENABLE_HF_TRANSFER", "0")}},
			SupportedUriFormats: formats,
			WorkloadType:        workload,
		},
	}
	if disabled {
		c.Disabled = &disabled
	}
	return c
}

func TestStorageContainerSelection(t *testing.T) {
	cfg := shippedConfig(t)
	all := []v1alpha1.ClusterStorageContainer{
		storageContainer("off", "off:1", true, v1alpha1.InitContainer, v1alpha1.SupportedUriFormat{Prefix: "s3://"}),
		storageContainer("job", "job:1", false, v1alpha1.LocalModelDownloadJob, v1alpha1.SupportedUriFormat{Prefix: "s3://"}),
		storageContainer("s3", "s3:1", false, v1alpha1.InitContainer, v1alpha1.SupportedUriFormat{Prefix: "s3://"}),
		storageContainer("regex", "regex:1", false, "", v1alpha1.SupportedUriFormat{Regex: `^custom://[a-z]+/`}),
		defaultStorageContainer(t),
	}
	renamed := storageContainer("renamed", "renamed:1", false, v1alpha1.InitContainer, v1alpha1.SupportedUriFormat{Prefix: "s3://"})
	renamed.Spec.Container.Name = "downloader"
	image := func(want string, hfTransfer string) func(*testing.T, *corev1.Pod) {
		return func(t *testing.T, pod *corev1.Pod) {
			init := container(t, pod.Spec.InitContainers, v1beta1.StorageInitializerContainerName)
			assert.Equal(t, want, init.Image)
			v := ""
			for _, e := range init.Env {
				if e.Name == "HF_HUB_ENABLE_HF_TRANSFER" {
					v = e.Value
				}
			}
			assert.Equal(t, hfTransfer, v, "the storage container's variable wins over the default")
		}
	}
	named := func(uri, name string) *corev1.Pod {
		return predictorPod(withURI(uri, v1beta1.StorageContainerNameAnnotation, name))
	}
	in := Inputs{Config: cfg, StorageContainers: all}
	runMutateCases(t, []mutateCase{
		{name: "by prefix, skipping disabled and job containers", pod: predictorPod(withURI("s3://m/iris")), in: in, check: image("s3:1", "0")},
		{name: "by regex", pod: predictorPod(withURI("custom://bucket/iris")), in: in, check: image("regex:1", "0")},
		{name: "falls through to the default", pod: predictorPod(withURI("gs://m/iris")), in: in, check: image("kserve/storage-initializer:latest", "1")},
		{name: "no match keeps the config's container", pod: predictorPod(withURI("ftp://m/iris")), in: in, check: image("kserve/storage-initializer:latest", "1")},
		{name: "explicit", pod: named("gs://m/iris", "regex-free"), in: Inputs{Config: cfg, StorageContainers: append(all,
			storageContainer("regex-free", "free:1", false, v1alpha1.InitContainer, v1alpha1.SupportedUriFormat{Prefix: "gs://"}))}, check: image("free:1", "0")},
		{name: "explicit, renamed container stays storage-initializer", pod: named("s3://m/iris", "renamed"),
			in: Inputs{Config: cfg, StorageContainers: []v1alpha1.ClusterStorageContainer{renamed}}, check: image("renamed:1", "0")},
		{name: "explicit missing", pod: named("s3://m/iris", "nope"), in: in,
			wantErr: `storageContainerName names ClusterStorageContainer "nope", which does not exist; create it or correct the name`},
		{name: "explicit disabled", pod: named("s3://m/iris", "off"), in: in, wantErr: `ClusterStorageContainer "off" (storageContainerName) is disabled`},
		{name: "explicit job container", pod: named("s3://m/iris", "job"), in: in, wantErr: `has workloadType "localModelDownloadJob", but a predictor needs "initContainer"`},
		{name: "explicit without support for the URI", pod: named("gs://m/iris", "s3"), in: in, wantErr: `ClusterStorageContainer "s3" (storageContainerName) does not support "gs://m/iris"`},
		{name: "explicit on a PVC that it does not support", pod: named("pvc://claim/m", "s3"), in: in, wantErr: `does not support "pvc://claim/m"`},
		{name: "a broken regex is named", pod: predictorPod(withURI("x://m")), in: Inputs{Config: cfg, StorageContainers: []v1alpha1.ClusterStorageContainer{
			storageContainer("bad", "b", false, "", v1alpha1.SupportedUriFormat{Regex: "("})}}, wantErr: `ClusterStorageContainer "bad": supportedUriFormats regex "("`},
	})
}

func TestStorageSpec(t *testing.T) {
	cfg := shippedConfig(t)
	storageConfig := secret("storage-config", map[string]string{
		"default":    `{"type": "s3", "bucket": "models", "cabundle_configmap": "minio-ca"}`,
		"localMinIO": `{"type": "s3", "access_key_id": "a", "endpoint_url": "http://minio:9000"}`,
		"hdfs":       `{"type": "hdfs", "host": "nn"}`,
		"broken":     `{`,
		"notype":     `{"bucket": "b"}`,
	}, nil)
	spec := func(key, params string) *corev1.Pod {
		a := withURI(credentials.URIPlaceholder+"sklearn/iris", v1beta1.StorageSpecAnnotation, "true")
		if key != "" {
			a[v1beta1.StorageSpecKeyAnnotation] = key
		}
		if params != "" {
			a[v1beta1.StorageSpecParamAnnotation] = params
		}
		return predictorPod(a)
	}
	in := Inputs{Config: cfg, StorageConfigSecret: storageConfig, SystemNamespace: "kserve"}
	check := func(uri string, vars ...corev1.EnvVar) func(*testing.T, *corev1.Pod) {
		return func(t *testing.T, pod *corev1.Pod) {
			init := pod.Spec.InitContainers[0]
			assert.Equal(t, []string{uri, "/mnt/models"}, init.Args)
			assert.Equal(t, vars, init.Env[:len(vars)])
		}
	}
	runMutateCases(t, []mutateCase{{
		name: "default key: type, bucket and CA bundle from the secret",
		pod:  spec("", ""), in: in,
		check: func(t *testing.T, pod *corev1.Pod) {
			check("s3://models/sklearn/iris", env("AWS_CA_BUNDLE_CONFIGMAP", "minio-ca"), secretRef("STORAGE_CONFIG", "storage-config", "default"),
				env("CA_BUNDLE_CONFIGMAP_NAME", "minio-ca"), env("CA_BUNDLE_VOLUME_MOUNT_POINT", "/etc/ssl/custom-certs"))(t, pod)
			assert.Equal(t, "minio-ca", volume(t, pod, "cabundle-cert").ConfigMap.Name)
		},
	}, {
		name: "named key with a bucket parameter",
		pod:  spec("localMinIO", `{"bucket": "other"}`), in: in,
		check: check("s3://other/sklearn/iris", secretRef("STORAGE_CONFIG", "storage-config", "localMinIO"), env("STORAGE_OVERRIDE_CONFIG", `{"bucket":"other"}`)),
	}, {
		name: "hdfs needs no bucket",
		pod:  spec("hdfs", ""), in: in,
		check: check("hdfs://sklearn/iris", secretRef("STORAGE_CONFIG", "storage-config", "hdfs")),
	}, {
		name: "the annotated secret replaces storage-config",
		pod: func() *corev1.Pod {
			p := spec("", `{"type": "s3", "bucket": "b"}`)
			p.Annotations[v1beta1.StorageSecretNameAnnotation] = "team-storage"
			return p
		}(),
		in: Inputs{Config: cfg, StorageConfigSecret: secret("team-storage", map[string]string{"default_s3": `{"type": "s3"}`}, nil)},
		check: check("s3://b/sklearn/iris", secretRef("STORAGE_CONFIG", "team-storage", "default_s3"),
			env("STORAGE_OVERRIDE_CONFIG", `{"bucket":"b","type":"s3"}`)),
	}, {
		name: "missing secret without a key: parameters alone",
		pod:  spec("", `{"type": "s3", "bucket": "b"}`), in: Inputs{Config: cfg},
		check: check("s3://b/sklearn/iris", env("STORAGE_OVERRIDE_CONFIG", `{"bucket":"b","type":"s3"}`)),
	}, {
		name: "missing secret with a key", pod: spec("localMinIO", ""), in: Inputs{Config: cfg},
		wantErr: `storage.key "localMinIO" needs secret "storage-config" in namespace "models", which does not exist; create the secret with that key`,
	}, {
		name: "missing key", pod: spec("nope", ""), in: in,
		wantErr: `secret "storage-config" in namespace "models" has no key "nope"; add the key or correct storage.key`,
	}, {
		name: "broken JSON", pod: spec("broken", ""), in: in, wantErr: `key "broken" of secret "storage-config" in namespace "models" is not a JSON object`,
	}, {
		name: "no type anywhere", pod: spec("notype", ""), in: in, wantErr: `cannot tell the type of the predictor's storage`,
	}, {
		name: "unsupported type", pod: spec("", `{"type": "gcs"}`), in: in, wantErr: `storage type "gcs" is not supported; use one of s3, hdfs, webhdfs`,
	}, {
		name: "s3 without a bucket", pod: spec("localMinIO", ""), in: in, wantErr: `storage type s3 needs a bucket`,
	}, {
		name: "broken parameters annotation", pod: spec("", `[1]`), in: in, wantErr: `annotation "internal.serving.kserve.io/storage-spec-param" is not a JSON object of strings`,
	}})
}

func TestCABundle(t *testing.T) {
	withBundle := func() Inputs {
		cfg := shippedConfig(t)
		cfg.StorageInitializer.CABundleConfigMapName = "cluster-ca"
		return Inputs{Config: cfg, SystemNamespace: "kserve"}
	}
	inSystem := predictorPod(withURI("s3://m/iris"))
	inSystem.Namespace = "kserve"
	s3WithBundle := withBundle()
	s3WithBundle.StorageCredentials = saCredentials(nil, secret("s3", map[string]string{"AWS_SECRET_ACCESS_KEY": "s", "AWS_ACCESS_KEY_ID": "a"},
		map[string]string{v1beta1.S3CABundleAnnotation: "/etc/ssl/s3/ca.crt", v1beta1.S3CABundleConfigMapAnnotation: "s3-ca"}))
	check := func(name, path string) func(*testing.T, *corev1.Pod) {
		return func(t *testing.T, pod *corev1.Pod) {
			init := pod.Spec.InitContainers[0]
			e := init.Env[len(init.Env)-5 : len(init.Env)-3]
			assert.Equal(t, []corev1.EnvVar{env("CA_BUNDLE_CONFIGMAP_NAME", name), env("CA_BUNDLE_VOLUME_MOUNT_POINT", path)}, e)
			assert.Equal(t, name, volume(t, pod, "cabundle-cert").ConfigMap.Name)
			assert.Contains(t, init.VolumeMounts, corev1.VolumeMount{Name: "cabundle-cert", MountPath: path, ReadOnly: true})
		}
	}
	runMutateCases(t, []mutateCase{
		{name: "workload namespace uses the copied bundle", pod: predictorPod(withURI("s3://m/iris")), in: withBundle(), check: check("global-ca-bundle", "/etc/ssl/custom-certs")},
		{name: "system namespace uses the configured bundle", pod: inSystem, in: withBundle(), check: check("cluster-ca", "/etc/ssl/custom-certs")},
		{name: "an S3 secret's bundle and file win", pod: predictorPod(withURI("s3://m/iris")), in: s3WithBundle, check: check("s3-ca", "/etc/ssl/s3")},
		{name: "no bundle configured", pod: predictorPod(withURI("s3://m/iris")), in: Inputs{Config: shippedConfig(t)},
			check: func(t *testing.T, pod *corev1.Pod) { assert.NotContains(t, volumeNames(pod), "cabundle-cert") }},
	})
}
