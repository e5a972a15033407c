package predictor

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/golden"
	"github.com/fsmserve/fsmserve/steps/runtime"
)

func shippedRuntime(t *testing.T, file string) *runtime.Runtime {
	t.Helper()
	raw, err := os.ReadFile("../../config/runtimes/" + file)
	require.NoError(t, err)
	var csr v1alpha1.ClusterServingRuntime
	require.NoError(t, yaml.UnmarshalStrict(raw, &csr))
	rts := runtime.FromClusterServingRuntimes([]v1alpha1.ClusterServingRuntime{csr})
	return &rts[0]
}

func sklearnSample() *v1beta1.InferenceService {
	uri := "gs://kfserving-examples/models/sklearn/1.0/model"
	return &v1beta1.InferenceService{
		ObjectMeta: metav1.ObjectMeta{Name: "sklearn-iris", Namespace: "ml", UID: "uid-1",
			Annotations: map[string]string{
				"kubectl.kubernetes.io/last-applied-configuration": "{}",
				"team": "search",
			}},
		Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
			SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}},
		}},
	}
}

// prepare runs the controller's sequence: normalize, resolve, apply runtime.
func prepare(t *testing.T, isvc *v1beta1.InferenceService, rt *runtime.Runtime) *v1beta1.InferenceService {
	t.Helper()
	work := isvc.DeepCopy()
	Normalize(&work.Spec.Predictor)
	req, ok := RuntimeRequest(&work.Spec.Predictor)
	require.True(t, ok)
	chosen, fail := runtime.Resolve(req, nil, []runtime.Runtime{*rt})
	require.Nil(t, fail)
	ApplyRuntime(work, &chosen)
	return work
}

func TestSklearnSampleBuildsKServesChildren(t *testing.T) {
	rt := shippedRuntime(t, "kserve-sklearnserver.yaml")
	work := prepare(t, sklearnSample(), rt)
	d, err := Build(work, rt, config.Default())
	require.NoError(t, err)

	dep := d.Deployment
	assert.Equal(t, "sklearn-iris-predictor", dep.Name)
	assert.Equal(t, map[string]string{"app": "isvc.sklearn-iris-predictor"}, dep.Spec.Selector.MatchLabels)
	assert.Equal(t, "sklearn-iris", dep.Labels[v1beta1.InferenceServiceLabel])
	assert.Equal(t, "predictor", dep.Labels["component"])
	assert.Equal(t, "gs://kfserving-examples/models/sklearn/1.0/model", dep.Annotations[v1beta1.StorageInitializerSourceURIAnnotation])
	assert.Equal(t, "search", dep.Spec.Template.Annotations["team"])
	assert.NotContains(t, dep.Annotations, "kubectl.kubernetes.io/last-applied-configuration")
	// The mutator's annotations stay off the Service and the autoscaler, so a
	// new model version changes only the Deployment.
	assert.NotContains(t, d.Service.Annotations, v1beta1.StorageInitializerSourceURIAnnotation)
	require.NotNil(t, d.HPA)
	assert.NotContains(t, d.HPA.Annotations, v1beta1.StorageInitializerSourceURIAnnotation)
	assert.Equal(t, "search", d.Service.Annotations["team"], "the user's annotations are carried as KServe does")
	require.Len(t, dep.OwnerReferences, 1)
	assert.Equal(t, "InferenceService", dep.OwnerReferences[0].Kind)
	assert.True(t, *dep.OwnerReferences[0].Controller)
	assert.Nil(t, dep.Spec.Replicas, "the HPA owns replicas")

	c := dep.Spec.Template.Spec.Containers[0]
	assert.Equal(t, "kserve-container", c.Name)
	assert.Contains(t, c.Args, "--model_name=sklearn-iris", "placeholders render with the InferenceService name")
	assert.Contains(t, c.Env, corev1.EnvVar{Name: "INFERENCE_SERVICE_NAME", Value: "sklearn-iris"})
	require.NotNil(t, c.ReadinessProbe)
	assert.Equal(t, intstr.FromInt32(8080), c.ReadinessProbe.TCPSocket.Port)

	assert.Equal(t, []corev1.ServicePort{{Name: "sklearn-iris-predictor", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}}, d.Service.Spec.Ports)
	require.NotNil(t, d.HPA)
	assert.Equal(t, int32(1), *d.HPA.Spec.MinReplicas)
	assert.Equal(t, int32(1), d.HPA.Spec.MaxReplicas)
	assert.Equal(t, int32(80), *d.HPA.Spec.Metrics[0].Resource.Target.AverageUtilization)

	dep.Annotations["added-later"] = "x"
	assert.NotContains(t, dep.Spec.Template.Annotations, "added-later", "the pod template must not share the Deployment's annotations")
	delete(dep.Annotations, "added-later")

	out, err := yaml.Marshal(dep)
	require.NoError(t, err)
	golden.Assert(t, "testdata/sklearn-deployment.yaml", string(out))
}

func TestNormalizeShorthands(t *testing.T) {
	uri := "s3://b/m"
	p := v1beta1.PredictorSpec{Triton: &v1beta1.TritonSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}}
	Normalize(&p)
	require.NotNil(t, p.Model)
	assert.Nil(t, p.Triton)
	assert.Equal(t, "triton", p.Model.ModelFormat.Name)
	assert.Equal(t, v1beta1.ProtocolV2, *p.Model.ProtocolVersion)
	assert.Equal(t, uri, *p.Model.StorageURI)

	sk := v1beta1.PredictorSpec{SKLearn: &v1beta1.SKLearnSpec{}}
	Normalize(&sk)
	assert.Nil(t, sk.Model.ProtocolVersion, "sklearn takes the runtime's protocol")

	again := p.DeepCopy()
	Normalize(again)
	assert.Equal(t, &p, again, "normalizing twice equals once")
}

func TestMergeContainer(t *testing.T) {
	rtC := corev1.Container{Name: "kserve-container", Image: "img:1", Args: []string{"--a"},
		Env:       []corev1.EnvVar{{Name: "PORT", Value: "1"}, {Name: "PORT2", Value: "2"}},
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": resource.MustParse("1"), "memory": resource.MustParse("2Gi")}}}
	isvcC := corev1.Container{Args: []string{"--b"}, Env: []corev1.EnvVar{{Name: "PORT2", Value: "8082"}, {Name: "Some", Value: "x"}},
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": resource.MustParse("2")}}}
	got, err := mergeContainer(rtC, isvcC)
	require.NoError(t, err)
	assert.Equal(t, []string{"--a", "--b"}, got.Args, "runtime args first")
	assert.Equal(t, []corev1.EnvVar{{Name: "PORT", Value: "1"}, {Name: "PORT2", Value: "8082"}, {Name: "Some", Value: "x"}}, got.Env)
	assert.Equal(t, "2", got.Resources.Limits.Cpu().String())
	assert.Equal(t, "2Gi", got.Resources.Limits.Memory().String())
	assert.Equal(t, "img:1", got.Image)
}

func TestBuildRejectsUnbuildablePredictors(t *testing.T) {
	noMain := &runtime.Runtime{Name: "broken", Spec: &v1alpha1.ServingRuntimeSpec{ServingRuntimePodSpec: v1alpha1.ServingRuntimePodSpec{
		Containers: []corev1.Container{{Name: "server", Image: "x"}}}}}
	badTemplate := &runtime.Runtime{Name: "tpl", Spec: &v1alpha1.ServingRuntimeSpec{ServingRuntimePodSpec: v1alpha1.ServingRuntimePodSpec{
		Containers: []corev1.Container{{Name: "kserve-container", Image: "x", Args: []string{"--name={{.Name"}}}}}}
	empty := &runtime.Runtime{Name: "empty", Spec: &v1alpha1.ServingRuntimeSpec{}}
	for _, tc := range []struct {
		rt   *runtime.Runtime
		want string
	}{{noMain, "failed to find kserve-container"}, {badTemplate, "failed to replace placeholders"}, {empty, "no container configuration"}} {
		work := sklearnSample()
		Normalize(&work.Spec.Predictor)
		_, err := Build(work, tc.rt, config.Default())
		var se *SpecError
		require.ErrorAs(t, err, &se, tc.rt.Name)
		assert.Contains(t, se.Message, tc.want)
	}
}

func TestAutoscalerClasses(t *testing.T) {
	rt := shippedRuntime(t, "kserve-sklearnserver.yaml")
	for class, wantHPA := range map[string]bool{"hpa": true, "external": false, "none": false} {
		isvc := sklearnSample()
		isvc.Annotations[v1beta1.AutoscalerClassAnnotation] = class
		isvc.Spec.Predictor.MinReplicas = ptr(int32(2))
		d, err := Build(prepare(t, isvc, rt), rt, config.Default())
		require.NoError(t, err)
		assert.Equal(t, wantHPA, d.HPA != nil, class)
		if class == "none" {
			assert.Equal(t, int32(2), *d.Deployment.Spec.Replicas)
		} else {
			assert.Nil(t, d.Deployment.Spec.Replicas, class)
		}
	}
}

func TestCustomContainers(t *testing.T) {
	isvc := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "custom", Namespace: "ml"},
		Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{PodSpec: v1beta1.PodSpec{
			Containers: []corev1.Container{{Image: "me/server:1", Ports: []corev1.ContainerPort{{Name: "h2c", ContainerPort: 9000}, {Name: "metrics", ContainerPort: 9090}}}}}}}}
	d, err := Build(isvc, nil, config.Default())
	require.NoError(t, err)
	c := d.Deployment.Spec.Template.Spec.Containers[0]
	assert.Equal(t, "kserve-container", c.Name)
	assert.Equal(t, intstr.FromInt32(9000), c.ReadinessProbe.TCPSocket.Port)
	ports := d.Service.Spec.Ports
	require.Len(t, ports, 2)
	assert.Equal(t, int32(80), ports[0].Port)
	assert.Equal(t, "kubernetes.io/h2c", *ports[0].AppProtocol)
	assert.Equal(t, int32(9090), ports[1].Port)
	assert.Equal(t, corev1.ProtocolTCP, ports[1].Protocol)
}

func TestLoggerRoutesThroughTheAgent(t *testing.T) {
	rt := shippedRuntime(t, "kserve-sklearnserver.yaml")
	isvc := sklearnSample()
	url := "http://sink"
	isvc.Spec.Predictor.Logger = &v1beta1.LoggerSpec{URL: &url, Mode: v1beta1.LogRequest}
	d, err := Build(prepare(t, isvc, rt), rt, config.Default())
	require.NoError(t, err)
	assert.Equal(t, intstr.FromInt32(AgentPort), d.Service.Spec.Ports[0].TargetPort)
	assert.Equal(t, "request", d.Deployment.Annotations[v1beta1.LoggerModeInternalAnnotation])
	assert.Equal(t, url, d.Deployment.Annotations[v1beta1.LoggerSinkURLInternalAnnotation])
}

func TestDeploymentStrategy(t *testing.T) {
	rt := shippedRuntime(t, "kserve-sklearnserver.yaml")
	isvc := sklearnSample()
	isvc.Spec.Predictor.DeploymentStrategy = &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	d, err := Build(prepare(t, isvc, rt), rt, config.Default())
	require.NoError(t, err)
	assert.Equal(t, appsv1.RecreateDeploymentStrategyType, d.Deployment.Spec.Strategy.Type)
	assert.Nil(t, d.Deployment.Spec.RevisionHistoryLimit, "set only on the default path")
}

func TestMemoryAverageValueTargetIsInMiB(t *testing.T) {
	rt := shippedRuntime(t, "kserve-sklearnserver.yaml")
	isvc := sklearnSample()
	memory, avg, target := v1beta1.ScaleMetric("memory"), v1beta1.AverageValueMetricType, int32(512)
	isvc.Spec.Predictor.ScaleMetric, isvc.Spec.Predictor.ScaleMetricType, isvc.Spec.Predictor.ScaleTarget = &memory, &avg, &target
	d, err := Build(prepare(t, isvc, rt), rt, config.Default())
	require.NoError(t, err)
	m := d.HPA.Spec.Metrics[0].Resource
	assert.Equal(t, corev1.ResourceMemory, m.Name)
	assert.Equal(t, "512Mi", m.Target.AverageValue.String())
}
