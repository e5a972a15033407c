package graph

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// defaultCPUUtilization is KServe's target when none is given.
const defaultCPUUtilization = 80

// hpa scales the router as KServe's hpa class does: min at least 1, max at
// least min, a CPU target (scaleTarget, 80% by default) or a memory target
// when scaleMetric is memory and a scaleTarget is set. concurrency and rps
// are Knative metrics the HPA cannot read; they leave the metrics to the
// API server's default.
func hpa(meta metav1.ObjectMeta, spec *v1alpha1.InferenceGraphSpec) *autoscalingv2.HorizontalPodAutoscaler {
	minReplicas := int32(1)
	if spec.MinReplicas != nil && *spec.MinReplicas >= 1 {
		minReplicas = *spec.MinReplicas
	}
	maxReplicas := max(spec.MaxReplicas, minReplicas)
	return &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: meta,
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: meta.Name},
			MinReplicas:    &minReplicas,
			MaxReplicas:    maxReplicas,
			Metrics:        hpaMetrics(spec),
		},
	}
}

func hpaMetrics(spec *v1alpha1.InferenceGraphSpec) []autoscalingv2.MetricSpec {
	metric := v1alpha1.ScaleMetric("cpu")
	if spec.ScaleMetric != nil {
		metric = *spec.ScaleMetric
	}
	switch {
	case metric == "cpu":
		target := int32(defaultCPUUtilization)
		if spec.ScaleTarget != nil {
			target = *spec.ScaleTarget
		}
		return []autoscalingv2.MetricSpec{utilization(corev1.ResourceCPU, target)}
	case metric == "memory" && spec.ScaleTarget != nil:
		return []autoscalingv2.MetricSpec{utilization(corev1.ResourceMemory, *spec.ScaleTarget)}
	}
	return nil
}

func utilization(name corev1.ResourceName, target int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: name, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target}}}
}
