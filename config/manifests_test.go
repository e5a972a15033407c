package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

func TestShippedConfigMapParsesCleanly(t *testing.T) {
	cm, err := DefaultConfigMap()
	require.NoError(t, err)
	assert.Equal(t, "inferenceservice-config", cm.Name)
	assert.Equal(t, "kserve", cm.Namespace)
	for _, k := range KnownKeys() {
		if k == KeyMultiNode || k == KeyService {
			continue // KServe does not ship these two; their defaults apply.
		}
		assert.Contains(t, cm.Data, k, "shipped ConfigMap lacks key %q", k)
	}

	cfg, errs := FromConfigMap(cm)
	require.Equal(t, 0, errs.Len(), "shipped ConfigMap must parse without errors: %v", errs.Err())
	assert.Equal(t, Standard, cfg.Deploy.DefaultDeploymentMode)

	// The values KServe ships where they differ from the code defaults.
	assert.True(t, cfg.StorageInitializer.EnableModelcar)
	require.NotNil(t, cfg.StorageInitializer.UIDModelcar)
	assert.EqualValues(t, 1010, *cfg.StorageInitializer.UIDModelcar)
	assert.Equal(t, "kserve/storage-initializer:latest", cfg.StorageInitializer.Image)
	assert.Equal(t, "AWS_ACCESS_KEY_ID", cfg.Credentials.S3.S3AccessKeyIDName)
	assert.Equal(t, "serving.kserve.io/storageSecretName", cfg.Credentials.StorageSecretNameAnnotation)
	assert.Equal(t, "knative-serving/knative-ingress-gateway", cfg.Ingress.IngressGateway)
	assert.Equal(t, "kserve/kserve-ingress-gateway", cfg.Ingress.KserveIngressGateway)
	assert.Equal(t, "istio", cfg.Ingress.IngressClassName)
	assert.True(t, cfg.Security.AutoMountServiceAccountToken)
	assert.Equal(t, "2Gi", cfg.InferenceService.Resource.MemoryLimit)
	assert.EqualValues(t, 300, *cfg.Autoscaler.ScaleDownStabilizationWindow())
	require.NotNil(t, cfg.LocalModel.FSGroup)
	assert.EqualValues(t, 1000, *cfg.LocalModel.FSGroup)
}

func TestDefaultManifestsOrder(t *testing.T) {
	docs, err := DefaultManifests()
	require.NoError(t, err)
	// Positions are compared relative to each other so the test keeps holding
	// when further directories (CRDs) are installed ahead of these.
	firstOf, lastOf := map[string]int{}, map[string]int{}
	var runtimeNames []string
	for i, d := range docs {
		var obj struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		require.NoError(t, yaml.Unmarshal(d, &obj))
		if _, seen := firstOf[obj.Kind]; !seen {
			firstOf[obj.Kind] = i
		}
		lastOf[obj.Kind] = i
		if obj.Kind == "ClusterServingRuntime" {
			runtimeNames = append(runtimeNames, obj.Metadata.Name)
		}
	}
	require.Contains(t, firstOf, "ClusterStorageContainer")
	require.Contains(t, firstOf, "ConfigMap")
	require.Contains(t, firstOf, "ClusterServingRuntime")
	assert.Less(t, lastOf["ClusterStorageContainer"], firstOf["ConfigMap"], "storage containers before the ConfigMap")
	assert.Less(t, lastOf["ConfigMap"], firstOf["ClusterServingRuntime"], "the ConfigMap before the runtimes")
	assert.Len(t, runtimeNames, 10)
	assert.IsIncreasing(t, runtimeNames, "runtimes come in file-name order")

	again, err := DefaultManifests()
	require.NoError(t, err)
	assert.Equal(t, docs, again, "the order is stable")
}

// runtimeDocs decodes every embedded runtime into a generic map by name.
func runtimeDocs(t *testing.T) map[string]map[string]any {
	t.Helper()
	entries, err := manifestFS.ReadDir("runtimes")
	require.NoError(t, err)
	out := map[string]map[string]any{}
	for _, e := range entries {
		b, err := manifestFS.ReadFile("runtimes/" + e.Name())
		require.NoError(t, err)
		var obj map[string]any
		require.NoError(t, yaml.Unmarshal(b, &obj), e.Name())
		meta, _ := obj["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		require.NotEmpty(t, name, e.Name())
		assert.Equal(t, name+".yaml", e.Name(), "file is named after the runtime")
		out[name] = obj
	}
	return out
}

func TestRuntimesAreWellFormed(t *testing.T) {
	docs := runtimeDocs(t)
	want := []string{
		"kserve-sklearnserver", "kserve-xgbserver", "kserve-lgbserver", "kserve-mlserver", "kserve-tensorflow-serving",
		"kserve-torchserve", "kserve-tritonserver", "kserve-huggingfaceserver", "kserve-paddleserver", "kserve-pmmlserver",
	}
	for _, name := range want {
		assert.Contains(t, docs, name)
	}
	for name, obj := range docs {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, "serving.kserve.io/v1alpha1", obj["apiVersion"])
			assert.Equal(t, "ClusterServingRuntime", obj["kind"])
			spec, ok := obj["spec"].(map[string]any)
			require.True(t, ok, "spec")

			containers, _ := spec["containers"].([]any)
			require.NotEmpty(t, containers)
			first, _ := containers[0].(map[string]any)
			assert.Equal(t, "kserve-container", first["name"])
			assert.NotEmpty(t, first["image"])
			assert.NotContains(t, first["image"], ":replace", "images are resolved, not kustomize placeholders")
			assert.NotEmpty(t, first["resources"])
			assert.NotEmpty(t, first["securityContext"])

			formats, _ := spec["supportedModelFormats"].([]any)
			require.NotEmpty(t, formats)
			for i, f := range formats {
				entry, _ := f.(map[string]any)
				assert.NotEmpty(t, entry["name"], "supportedModelFormats[%d] has a name", i)
			}
			assert.NotEmpty(t, spec["protocolVersions"])
			annotations, _ := spec["annotations"].(map[string]any)
			assert.Equal(t, "/metrics", annotations["prometheus.kserve.io/path"])
			assert.NotEmpty(t, annotations["prometheus.kserve.io/port"])
		})
	}
}

func TestSklearnRuntimeFormat(t *testing.T) {
	spec := runtimeDocs(t)["kserve-sklearnserver"]["spec"].(map[string]any)
	formats := spec["supportedModelFormats"].([]any)
	require.Len(t, formats, 1)
	assert.Equal(t, map[string]any{"name": "sklearn", "version": "1", "autoSelect": true, "priority": float64(1)}, formats[0])
	assert.Equal(t, []any{"v1", "v2"}, spec["protocolVersions"])
	container := spec["containers"].([]any)[0].(map[string]any)
	assert.Equal(t, "kserve/sklearnserver:latest", container["image"])
	assert.Contains(t, container["args"], "--model_name={{.Name}}")
}

func TestTritonServesPytorchOnlyWhenNamed(t *testing.T) {
	spec := runtimeDocs(t)["kserve-tritonserver"]["spec"].(map[string]any)
	for _, f := range spec["supportedModelFormats"].([]any) {
		entry := f.(map[string]any)
		if entry["name"] == "pytorch" {
			assert.NotContains(t, entry, "autoSelect", "TorchServe, not Triton, is auto-selected for pytorch")
			return
		}
	}
	t.Fatal("kserve-tritonserver lists no pytorch format")
}

func TestDefaultStorageContainer(t *testing.T) {
	b, err := manifestFS.ReadFile("storagecontainers/default.yaml")
	require.NoError(t, err)
	var obj struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Spec struct {
			Container struct {
				Name  string `json:"name"`
				Image string `json:"image"`
			} `json:"container"`
			SupportedURIFormats []struct {
				Prefix string `json:"prefix"`
				Regex  string `json:"regex"`
			} `json:"supportedUriFormats"`
			WorkloadType               string `json:"workloadType"`
			SupportsMultiModelDownload bool   `json:"supportsMultiModelDownload"`
		} `json:"spec"`
	}
	require.NoError(t, yaml.Unmarshal(b, &obj))
	assert.Equal(t, "serving.kserve.io/v1alpha1", obj.APIVersion)
	assert.Equal(t, "ClusterStorageContainer", obj.Kind)
	assert.Equal(t, "default", obj.Metadata.Name)
	assert.Equal(t, "storage-initializer", obj.Spec.Container.Name)
	assert.Equal(t, DefaultStorageInitializerImage, obj.Spec.Container.Image)
	assert.Equal(t, "initContainer", obj.Spec.WorkloadType)
	assert.True(t, obj.Spec.SupportsMultiModelDownload)
	var prefixes []string
	regexes := 0
	for _, f := range obj.Spec.SupportedURIFormats {
		if f.Prefix != "" {
			prefixes = append(prefixes, f.Prefix)
		} else {
			regexes++
		}
	}
	assert.Equal(t, []string{"gs://", "s3://", "hdfs://", "hf://", "modelscope://", "webhdfs://"}, prefixes)
	assert.Equal(t, 3, regexes)
}
