package graph

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/golden"
	"github.com/fsmserve/fsmserve/steps/serving"
)

func dogBreed(mut func(*v1alpha1.InferenceGraph)) *v1alpha1.InferenceGraph {
	ig := &v1alpha1.InferenceGraph{
		ObjectMeta: metav1.ObjectMeta{Name: "dog-breed", Namespace: "ns", UID: "uid-1",
			Labels:      map[string]string{"team": "vision"},
			Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": "{}", "note": "kept"}},
		Spec: *dogBreedSpec(),
	}
	ig.Spec.Tolerations = []corev1.Toleration{{Key: "gpu", Operator: corev1.TolerationOpExists}}
	ig.Spec.NodeSelector = map[string]string{"pool": "routers"}
	ig.Spec.ServiceAccountName = "graph-sa"
	if mut != nil {
		mut(ig)
	}
	return ig
}

func routerConfig(mut func(*config.RouterConfig)) *config.Config {
	cfg := config.Default()
	cfg.Router.Headers = map[string][]string{"propagate": {"Authorization", "Trace-Id.*"}}
	cfg.Router.ImagePullSecrets = []string{"registry-secret"}
	if mut != nil {
		mut(&cfg.Router)
	}
	return cfg
}

const graphJSON = `{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://x"}]}}}`

func TestBuildGolden(t *testing.T) {
	d := Build(dogBreed(nil), []byte(graphJSON), routerConfig(nil))
	var out []byte
	for _, obj := range []any{d.Deployment, d.Service, d.HPA} {
		raw, err := yaml.Marshal(obj)
		require.NoError(t, err)
		out = append(append(out, "---\n"...), raw...)
	}
	golden.Assert(t, "testdata/dog-breed-router.yaml", string(out))
}

func TestBuildRouterContainer(t *testing.T) {
	d := Build(dogBreed(nil), []byte(graphJSON), routerConfig(nil))
	pod := d.Deployment.Spec.Template.Spec
	c := pod.Containers[0]
	assert.Equal(t, []string{"fsmserve", "router"}, c.Command)
	assert.Equal(t, []string{"--graph-json", graphJSON}, c.Args)
	assert.Equal(t, config.DefaultRouterImage, c.Image, "the router key's image, as configured")
	assert.Equal(t, []corev1.EnvVar{{Name: "PROPAGATE_HEADERS", Value: "Authorization,Trace-Id.*"}}, c.Env)
	assert.Equal(t, "/readyz", c.ReadinessProbe.HTTPGet.Path)
	assert.Equal(t, false, *pod.AutomountServiceAccountToken)
	assert.Equal(t, "registry-secret", pod.ImagePullSecrets[0].Name)
	assert.Equal(t, "graph-sa", pod.ServiceAccountName)
	assert.Equal(t, "isvc.dog-breed", d.Deployment.Spec.Selector.MatchLabels["app"])
	for _, labels := range []map[string]string{d.Deployment.Labels, d.Service.Labels, d.HPA.Labels, d.Deployment.Spec.Template.Labels} {
		assert.Equal(t, "dog-breed", labels["serving.kserve.io/inferencegraph"])
		assert.Equal(t, "fsmserve", labels["app.kubernetes.io/managed-by"])
		assert.Equal(t, "vision", labels["team"])
	}
	assert.NotContains(t, d.Deployment.Annotations, "kubectl.kubernetes.io/last-applied-configuration")
	assert.Equal(t, d.TemplateHash, d.Deployment.Spec.Template.Annotations[serving.TemplateHashAnnotation])
}

func TestBuildVariants(t *testing.T) {
	t.Run("no propagate key, no env", func(t *testing.T) {
		d := Build(dogBreed(nil), []byte(graphJSON), routerConfig(func(r *config.RouterConfig) { r.Headers = nil }))
		assert.Empty(t, d.Deployment.Spec.Template.Spec.Containers[0].Env)
	})
	t.Run("spec.resources replace the configured ones whole", func(t *testing.T) {
		ig := dogBreed(func(ig *v1alpha1.InferenceGraph) {
			ig.Spec.Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}
		})
		res := Build(ig, []byte(graphJSON), routerConfig(nil)).Deployment.Spec.Template.Spec.Containers[0].Resources
		assert.Equal(t, "2", res.Limits.Cpu().String())
		assert.Empty(t, res.Requests)
	})
	t.Run("the configured resources otherwise", func(t *testing.T) {
		res := Build(dogBreed(nil), []byte(graphJSON), routerConfig(nil)).Deployment.Spec.Template.Spec.Containers[0].Resources
		assert.Equal(t, "100m", res.Requests.Cpu().String())
		assert.Equal(t, "1Gi", res.Limits.Memory().String())
	})
	t.Run("autoscaler class none: no HPA, replicas from minReplicas", func(t *testing.T) {
		ig := dogBreed(func(ig *v1alpha1.InferenceGraph) {
			ig.Annotations["serving.kserve.io/autoscalerClass"] = "none"
			ig.Spec.MinReplicas = ptr(int32(2))
		})
		d := Build(ig, []byte(graphJSON), routerConfig(nil))
		assert.Nil(t, d.HPA)
		assert.Equal(t, int32(2), *d.Deployment.Spec.Replicas)
	})
	t.Run("HPA from min, max, metric and target", func(t *testing.T) {
		ig := dogBreed(func(ig *v1alpha1.InferenceGraph) {
			ig.Spec.MinReplicas, ig.Spec.MaxReplicas = ptr(int32(2)), 5
			ig.Spec.ScaleMetric, ig.Spec.ScaleTarget = ptr(v1alpha1.ScaleMetric("memory")), ptr(int32(70))
		})
		h := Build(ig, []byte(graphJSON), routerConfig(nil)).HPA
		assert.Equal(t, int32(2), *h.Spec.MinReplicas)
		assert.Equal(t, int32(5), h.Spec.MaxReplicas)
		assert.Equal(t, corev1.ResourceMemory, h.Spec.Metrics[0].Resource.Name)
		assert.Equal(t, int32(70), *h.Spec.Metrics[0].Resource.Target.AverageUtilization)
		assert.Nil(t, Build(ig, []byte(graphJSON), routerConfig(nil)).Deployment.Spec.Replicas, "the HPA owns replicas")
	})
	t.Run("max below min is raised to min; minReplicas 0 means 1", func(t *testing.T) {
		ig := dogBreed(func(ig *v1alpha1.InferenceGraph) { ig.Spec.MinReplicas = ptr(int32(0)) })
		h := Build(ig, []byte(graphJSON), routerConfig(nil)).HPA
		assert.Equal(t, int32(1), *h.Spec.MinReplicas)
		assert.Equal(t, int32(1), h.Spec.MaxReplicas)
		assert.Equal(t, int32(80), *h.Spec.Metrics[0].Resource.Target.AverageUtilization)
	})
	t.Run("a new graph JSON changes the template hash", func(t *testing.T) {
		a := Build(dogBreed(nil), []byte(graphJSON), routerConfig(nil)).TemplateHash
		b := Build(dogBreed(nil), []byte(`{"nodes":{}}`), routerConfig(nil)).TemplateHash
		assert.NotEqual(t, a, b)
		assert.Equal(t, a, Build(dogBreed(nil), []byte(graphJSON), routerConfig(nil)).TemplateHash)
	})
}
