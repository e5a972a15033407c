package pod

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

func istioPod(annotations map[string]string, sidecarUID *int64, istioInit bool) *corev1.Pod {
	p := predictorPod(annotations)
	sidecar := corev1.Container{Name: "istio-proxy"}
	if sidecarUID != nil {
		sidecar.SecurityContext = &corev1.SecurityContext{RunAsUser: sidecarUID}
	}
	p.Spec.Containers = append(p.Spec.Containers, sidecar)
	if istioInit {
		p.Spec.InitContainers = []corev1.Container{{Name: "istio-init"}}
	}
	return p
}

func TestIstioCNIUser(t *testing.T) {
	in := Inputs{Config: config.Default()}
	cni := func(extra ...string) map[string]string {
		return withURI("s3://m/iris", append([]string{"sidecar.istio.io/interceptionMode", "REDIRECT",
			"sidecar.istio.io/status", `{"containers":["istio-proxy"],"initContainers":null}`}, extra...)...)
	}
	uid := func(want *int64) func(*testing.T, *corev1.Pod) {
		return func(t *testing.T, pod *corev1.Pod) {
			init := container(t, pod.Spec.InitContainers, v1beta1.StorageInitializerContainerName)
			if want == nil {
				assert.Nil(t, init.SecurityContext)
				return
			}
			assert.Equal(t, want, init.SecurityContext.RunAsUser)
		}
	}
	runMutateCases(t, []mutateCase{
		{name: "annotation", pod: predictorPod(withURI("s3://m/iris", v1beta1.StorageInitializerUIDAnnotation, "1500")), in: in, check: uid(ptr.To(int64(1500)))},
		{name: "copied from the sidecar", pod: istioPod(cni(), ptr.To(int64(2000)), false), in: in, check: uid(ptr.To(int64(2000)))},
		{name: "Istio's default user", pod: istioPod(cni(), nil, false), in: in, check: uid(ptr.To(int64(1337)))},
		{name: "istio-init means no CNI", pod: istioPod(cni(), ptr.To(int64(2000)), true), in: in, check: uid(nil)},
		{name: "TPROXY is left alone", pod: istioPod(withURI("s3://m/iris", "sidecar.istio.io/interceptionMode", "TPROXY"), ptr.To(int64(2000)), false), in: in, check: uid(nil)},
		{name: "an unreadable status is left alone", pod: istioPod(cni("sidecar.istio.io/status", "[1]"), ptr.To(int64(2000)), false), in: in, check: uid(nil)},
		{name: "a bad annotation", pod: predictorPod(withURI("s3://m/iris", v1beta1.StorageInitializerUIDAnnotation, "root")), in: in,
			wantErr: `annotation "serving.kserve.io/storage-initializer-uid" is "root", which is not a user ID`},
	})
}

func TestAcceleratorAndMetrics(t *testing.T) {
	gpu := predictorPod(map[string]string{v1beta1.GKEAcceleratorAnnotation: "nvidia-tesla-t4"})
	gpu.Spec.Containers[0].Resources.Limits = corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")}
	on, errs := parseConfig(t, map[string]string{"metricsAggregator": `{"enableMetricAggregation": "true", "enablePrometheusScraping": "true"}`})
	assert.NoError(t, errs.Err())
	knative := predictorPod(map[string]string{v1beta1.PrometheusPortAnnotation: "8082"})
	knative.Spec.Containers = append(knative.Spec.Containers, corev1.Container{Name: "queue-proxy", Ports: []corev1.ContainerPort{{Name: "http-usermetric", ContainerPort: 9091}}})
	runMutateCases(t, []mutateCase{{
		name: "GKE accelerator for a GPU pod", pod: gpu, in: Inputs{},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, map[string]string{"cloud.google.com/gke-accelerator": "nvidia-tesla-t4"}, pod.Spec.NodeSelector)
		},
	}, {
		name: "no GPU, no selector", pod: predictorPod(map[string]string{v1beta1.GKEAcceleratorAnnotation: "nvidia-tesla-t4"}), in: Inputs{},
		check: func(t *testing.T, pod *corev1.Pod) { assert.Nil(t, pod.Spec.NodeSelector) },
	}, {
		name: "metrics switches default from the config", pod: predictorPod(nil), in: Inputs{},
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, map[string]string{v1beta1.EnableMetricAggregationAnnotation: "false", v1beta1.EnablePrometheusScrapingAnnotation: "false"}, pod.Annotations)
		},
	}, {
		name: "aggregation and scraping under Knative", pod: knative, in: Inputs{Config: on},
		check: func(t *testing.T, pod *corev1.Pod) {
			qp := container(t, pod.Spec.Containers, "queue-proxy")
			assert.Equal(t, []corev1.EnvVar{env("KSERVE_CONTAINER_PROMETHEUS_METRICS_PORT", "8082"), env("KSERVE_CONTAINER_PROMETHEUS_METRICS_PATH", "/metrics"),
				env("AGGREGATE_PROMETHEUS_METRICS_PORT", "9088")}, qp.Env)
			assert.Equal(t, corev1.ContainerPort{Name: "aggr-metric", ContainerPort: 9088, Protocol: corev1.ProtocolTCP}, qp.Ports[1])
			assert.Equal(t, "9088", pod.Annotations["prometheus.io/port"])
			assert.Equal(t, "/metrics", pod.Annotations["prometheus.io/path"])
		},
	}, {
		name: "scraping without aggregation: queue-proxy's own port",
		pod:  predictorPod(map[string]string{v1beta1.EnablePrometheusScrapingAnnotation: "true"}), in: Inputs{},
		check: func(t *testing.T, pod *corev1.Pod) { assert.Equal(t, "9091", pod.Annotations["prometheus.io/port"]) },
	}, {
		name: "a rejected metricsAggregator key", pod: predictorPod(nil),
		in: func() Inputs {
			_, errs := parseConfig(t, map[string]string{"metricsAggregator": `{"enableMetricAggregation": "yes please"}`})
			return Inputs{ConfigErrors: errs}
		}(),
		wantErr: `key "metricsAggregator"`,
	}})
}
