package predictor

import (
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// deployment builds the predictor Deployment with KServe's defaults.
func deployment(meta metav1.ObjectMeta, pod corev1.PodSpec, pred *v1beta1.PredictorSpec, class v1beta1.AutoscalerClass, deploy *config.DeployConfig) *appsv1.Deployment {
	applyPodDefaults(&pod)
	// The template gets its own copies: annotations later put on the
	// Deployment (such as its trace context) must not change the pod template
	// and so roll the pods.
	template := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{
		Name: meta.Name, Namespace: meta.Namespace, Labels: maps.Clone(meta.Labels), Annotations: maps.Clone(meta.Annotations),
	}, Spec: pod}
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: meta,
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{v1beta1.AppLabel: meta.Labels[v1beta1.AppLabel]}},
			Template: template,
		},
	}
	if pred.DeploymentStrategy != nil {
		d.Spec.Strategy = *pred.DeploymentStrategy.DeepCopy()
	} else {
		d.Spec.Strategy = defaultStrategy(deploy)
		d.Spec.RevisionHistoryLimit = ptr(int32(10))
		d.Spec.ProgressDeadlineSeconds = ptr(int32(600))
	}
	if class == v1beta1.AutoscalerClassNone && pred.MinReplicas != nil {
		d.Spec.Replicas = ptr(*pred.MinReplicas)
	}
	return d
}

// defaultStrategy is a 25%/25% rolling update, overridden by the configured
// default rollout when the default deployment mode is Standard.
func defaultStrategy(deploy *config.DeployConfig) appsv1.DeploymentStrategy {
	quarter := intstr.FromString("25%")
	s := appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &quarter, MaxSurge: &quarter}}
	if r := deploy.DefaultRollout(); r != nil {
		if r.MaxSurge != nil {
			s.RollingUpdate.MaxSurge = r.MaxSurge
		}
		if r.MaxUnavailable != nil {
			s.RollingUpdate.MaxUnavailable = r.MaxUnavailable
		}
	}
	return s
}

func applyPodDefaults(pod *corev1.PodSpec) {
	if pod.DNSPolicy == "" {
		pod.DNSPolicy = corev1.DNSClusterFirst
	}
	if pod.RestartPolicy == "" {
		pod.RestartPolicy = corev1.RestartPolicyAlways
	}
	if pod.TerminationGracePeriodSeconds == nil {
		pod.TerminationGracePeriodSeconds = ptr(int64(30))
	}
	if pod.SecurityContext == nil {
		pod.SecurityContext = &corev1.PodSecurityContext{}
	}
	if pod.SchedulerName == "" {
		pod.SchedulerName = corev1.DefaultSchedulerName
	}
}

func ptr[T any](v T) *T { return &v }
