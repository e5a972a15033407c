package localmodel

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	isvcwebhook "github.com/fsmserve/fsmserve/webhooks/inferenceservice"
)

const (
	labelCache   = v1beta1.LocalModelLabel
	labelNS      = v1beta1.LocalModelNamespaceLabel
	annSourceURI = v1beta1.LocalModelSourceURIInternalAnnotation
	annPVC       = v1beta1.LocalModelPVCNameInternalAnnotation
)

func isvcWith(uri string, annotations map[string]string) *v1beta1.InferenceService {
	isvc := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "chat", Namespace: casesNamespace, Annotations: annotations}}
	if uri != "" {
		isvc.Spec.Predictor.Model = &v1beta1.ModelSpec{ModelFormat: v1beta1.ModelFormat{Name: "huggingface"},
			PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}
	}
	return isvc
}

func TestChoose(t *testing.T) {
	cluster := []Candidate{
		{Name: "z-llama", SourceModelUri: "hf://meta/llama", NodeGroups: []string{"gpu-a"}},
		{Name: "a-llama", SourceModelUri: "hf://meta/llama", NodeGroups: []string{"gpu-b", "gpu-c"}},
		{Name: "bert", SourceModelUri: "s3://models/bert", NodeGroups: []string{"cpu"}},
	}
	namespaced := []Candidate{{Name: "team-llama", Namespace: casesNamespace, SourceModelUri: "hf://meta/llama", NodeGroups: []string{"gpu-a"}}}
	pin := func(g string) map[string]string { return map[string]string{v1beta1.NodeGroupAnnotation: g} }
	cases := []struct {
		name        string
		isvc        *v1beta1.InferenceService
		namespaced  []Candidate
		wantCache   string
		wantGroup   string
		wantNoMatch bool
	}{
		{name: "the namespace cache shadows the cluster caches", isvc: isvcWith("hf://meta/llama", nil), namespaced: namespaced, wantCache: "team-llama", wantGroup: "gpu-a"},
		{name: "cluster caches by name; the first node group", isvc: isvcWith("hf://meta/llama", nil), wantCache: "a-llama", wantGroup: "gpu-b"},
		{name: "a sub-path of the cached URI", isvc: isvcWith("s3://models/bert/v1/", nil), wantCache: "bert", wantGroup: "cpu"},
		{name: "a sibling path is not cached", isvc: isvcWith("s3://models/bert-large", nil), wantNoMatch: true},
		{name: "a pinned node group the namespace cache lacks falls through", isvc: isvcWith("hf://meta/llama", pin("gpu-c")), namespaced: namespaced, wantCache: "a-llama", wantGroup: "gpu-c"},
		{name: "a pinned node group decides between cluster caches", isvc: isvcWith("hf://meta/llama", pin("gpu-a")), wantCache: "z-llama", wantGroup: "gpu-a"},
		{name: "a pinned node group no cache has", isvc: isvcWith("hf://meta/llama", pin("tpu")), namespaced: namespaced, wantNoMatch: true},
		{name: "no storage URI", isvc: isvcWith("", nil), namespaced: namespaced, wantNoMatch: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Choose(c.isvc, c.namespaced, cluster)
			if c.wantNoMatch {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, c.wantCache, got.Cache.Name)
			assert.Equal(t, c.wantGroup, got.NodeGroup)
		})
	}
}

func TestSetLabels(t *testing.T) {
	isvc := isvcWith("hf://meta/llama", nil)
	SetLabels(isvc, &Choice{Cache: Candidate{Name: "llama", Namespace: "team", SourceModelUri: "hf://meta/llama"}, NodeGroup: "gpu"})
	assert.Equal(t, map[string]string{labelCache: "llama", labelNS: "team"}, isvc.Labels)
	assert.Equal(t, map[string]string{annSourceURI: "hf://meta/llama", annPVC: "llama-gpu"}, isvc.Annotations)

	SetLabels(isvc, &Choice{Cache: Candidate{Name: "shared", SourceModelUri: "hf://meta"}, NodeGroup: "gpu-b"})
	assert.Equal(t, map[string]string{labelCache: "shared"}, isvc.Labels, "a cluster cache drops the namespace label")
	assert.Equal(t, "shared-gpu-b", isvc.Annotations[annPVC])

	isvc.Labels["app"], isvc.Annotations["keep"] = "x", "y"
	SetLabels(isvc, nil)
	assert.Equal(t, map[string]string{"app": "x"}, isvc.Labels)
	assert.Equal(t, map[string]string{"keep": "y"}, isvc.Annotations)
	SetLabels(&v1beta1.InferenceService{}, nil) // nil maps are fine
}

func loader(data map[string]string) ConfigLoader {
	return func(context.Context) (*config.Config, *config.Errors, error) {
		cfg, errs := config.Parse(data)
		return cfg, errs, nil
	}
}

func TestLabelerAgainstStoredCaches(t *testing.T) {
	enabled := loader(map[string]string{config.KeyLocalModel: `{"enabled": true}`})
	objs := []client.Object{
		&v1alpha1.LocalModelCache{ObjectMeta: metav1.ObjectMeta{Name: "llama"},
			Spec: v1alpha1.LocalModelCacheSpec{SourceModelUri: "hf://meta/llama", ModelSize: resource.MustParse("1Gi"), NodeGroups: []string{"gpu"}}},
		&v1alpha1.LocalModelNamespaceCache{ObjectMeta: metav1.ObjectMeta{Name: "mine", Namespace: casesNamespace},
			Spec: v1alpha1.LocalModelNamespaceCacheSpec{SourceModelUri: "hf://meta/llama", ModelSize: resource.MustParse("1Gi"), NodeGroups: []string{"gpu"}}},
		&v1alpha1.LocalModelNamespaceCache{ObjectMeta: metav1.ObjectMeta{Name: "theirs", Namespace: "elsewhere"},
			Spec: v1alpha1.LocalModelNamespaceCacheSpec{SourceModelUri: "hf://meta/bert", ModelSize: resource.MustParse("1Gi"), NodeGroups: []string{"gpu"}}},
	}
	cl := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(objs...).Build()
	ctx := context.Background()
	t.Run("the namespace cache of its namespace wins", func(t *testing.T) {
		isvc := isvcWith("hf://meta/llama", nil)
		require.NoError(t, (&Labeler{Client: cl, Config: enabled}).Label(ctx, isvc))
		assert.Equal(t, "mine", isvc.Labels[labelCache])
		assert.Equal(t, casesNamespace, isvc.Labels[labelNS])
		assert.Equal(t, "mine-gpu", isvc.Annotations[annPVC])
	})
	t.Run("another namespace's cache is never used", func(t *testing.T) {
		isvc := isvcWith("hf://meta/bert", map[string]string{annPVC: "stale"})
		isvc.Labels = map[string]string{labelCache: "stale"}
		require.NoError(t, (&Labeler{Client: cl, Config: enabled}).Label(ctx, isvc))
		assert.Empty(t, isvc.Labels[labelCache], "no match removes stale labels")
		assert.Empty(t, isvc.Annotations[annPVC])
	})
	t.Run("opting out removes the labels", func(t *testing.T) {
		isvc := isvcWith("hf://meta/llama", map[string]string{v1beta1.DisableLocalModelAnnotation: "true", annPVC: "llama-gpu"})
		isvc.Labels = map[string]string{labelCache: "llama"}
		require.NoError(t, (&Labeler{Client: cl, Config: enabled}).Label(ctx, isvc))
		assert.NotContains(t, isvc.Labels, labelCache)
		assert.NotContains(t, isvc.Annotations, annPVC)
	})
	t.Run("local models disabled leave the service alone, as in KServe", func(t *testing.T) {
		for _, l := range []*Labeler{{Client: cl, Config: loader(nil)}, {Client: cl}} {
			isvc := isvcWith("hf://meta/llama", nil)
			require.NoError(t, l.Label(ctx, isvc))
			assert.Empty(t, isvc.Labels)
		}
	})
	t.Run("a rejected localModel key or an unreadable ConfigMap fails the request", func(t *testing.T) {
		bad := &Labeler{Client: cl, Config: loader(map[string]string{config.KeyLocalModel: `{"jobNamespace": "Bad"}`})}
		assert.ErrorContains(t, bad.Label(ctx, isvcWith("hf://meta/llama", nil)), "jobNamespace")
		gone := &Labeler{Client: cl, Config: func(context.Context) (*config.Config, *config.Errors, error) { return nil, nil, errors.New("boom") }}
		assert.ErrorContains(t, gone.Label(ctx, isvcWith("hf://meta/llama", nil)), "reading inferenceservice-config: boom")
	})
}

// TestDefaulterLabelsThroughTheLabeler runs KServe's defaulter with the
// labeller wired as webhooks.Register wires it: the framework shorthand is
// converted first, then the cache is chosen from the converted storageUri.
func TestDefaulterLabelsThroughTheLabeler(t *testing.T) {
	cl := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(&v1alpha1.LocalModelCache{ObjectMeta: metav1.ObjectMeta{Name: "iris"},
		Spec: v1alpha1.LocalModelCacheSpec{SourceModelUri: "gs://kfserving-examples/models/sklearn", ModelSize: resource.MustParse("1Gi"), NodeGroups: []string{"cpu"}}}).Build()
	enabled := map[string]string{config.KeyLocalModel: `{"enabled": true}`}
	d := &isvcwebhook.Defaulter{Config: isvcwebhook.ConfigLoader(loader(enabled)), LocalModelLabeler: &Labeler{Client: cl, Config: loader(enabled)}}
	isvc := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "iris", Namespace: casesNamespace}}
	uri := "gs://kfserving-examples/models/sklearn/1.0/model"
	isvc.Spec.Predictor.SKLearn = &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}
	require.NoError(t, d.Default(context.Background(), isvc))
	assert.Equal(t, "iris", isvc.Labels[labelCache])
	assert.Equal(t, "iris-cpu", isvc.Annotations[annPVC])
	assert.Equal(t, "gs://kfserving-examples/models/sklearn", isvc.Annotations[annSourceURI])
}
