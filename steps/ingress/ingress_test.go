package ingress

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

func isvc(labels map[string]string) *v1beta1.InferenceService {
	return &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "sk", Namespace: "default", Labels: labels,
		Annotations: map[string]string{lastAppliedAnnotation: "{}", "team": "a"}}}
}

func TestIngressRoutesBothHostsToThePredictor(t *testing.T) {
	cfg := config.Default().Ingress
	ing, err := Ingress(isvc(nil), &cfg)
	require.NoError(t, err)
	require.Len(t, ing.Spec.Rules, 2)
	assert.Equal(t, "sk-default.example.com", ing.Spec.Rules[0].Host)
	assert.Equal(t, "sk-predictor-default.example.com", ing.Spec.Rules[1].Host)
	for _, r := range ing.Spec.Rules {
		b := r.HTTP.Paths[0].Backend.Service
		assert.Equal(t, "sk-predictor", b.Name)
		assert.Equal(t, int32(80), b.Port.Number)
		assert.Equal(t, "/", r.HTTP.Paths[0].Path)
	}
	assert.Nil(t, ing.Spec.IngressClassName, "no class unless configured")
	cfg.IngressClassName = "istio"
	ing, err = Ingress(isvc(nil), &cfg)
	require.NoError(t, err)
	assert.Equal(t, "istio", *ing.Spec.IngressClassName)
	assert.Equal(t, map[string]string{"team": "a"}, ing.Annotations)
}

func TestWantedAndURLs(t *testing.T) {
	cfg := config.Default().Ingress
	assert.True(t, Wanted(isvc(nil), &cfg))
	assert.False(t, Wanted(isvc(map[string]string{v1beta1.VisibilityLabel: "cluster-local"}), &cfg))
	disabled := cfg
	disabled.DisableIngressCreation = true
	assert.False(t, Wanted(isvc(nil), &disabled))

	u, err := URL(isvc(nil), &cfg)
	require.NoError(t, err)
	assert.Equal(t, "http://sk-default.example.com", u)
	https := cfg
	https.URLScheme = "https"
	u, _ = URL(isvc(nil), &https)
	assert.Equal(t, "https://sk-default.example.com", u)
	cu, _ := ComponentURL(isvc(nil), &https)
	assert.Equal(t, "http://sk-predictor-default.example.com", cu, "component URLs are always http, as KServe writes them")
}

func TestAddress(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "sk-predictor", Namespace: "default"}}
	assert.Equal(t, "http://sk-predictor.default.svc.cluster.local", Address(svc, "cluster.local"))
	svc.Spec.ClusterIP = corev1.ClusterIPNone
	svc.Spec.Ports = []corev1.ServicePort{{Name: "grpc", TargetPort: intstr.FromInt32(9000)}, {Name: "http", TargetPort: intstr.FromInt32(8081)}}
	assert.Equal(t, "http://sk-predictor.default.svc.cluster.local:8081", Address(svc, "cluster.local"))
	svc.Spec.Ports = nil
	assert.Equal(t, "http://sk-predictor.default.svc.cluster.local:8080", Address(svc, "cluster.local"))
}
