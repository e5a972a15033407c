package graph

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/steps/predictor"
)

// hpa scales the router as KServe's hpa class does: min at least 1, max at
// least min, a CPU target (scaleTarget, 80% by default) or a memory target
// when scaleMetric is memory and a scaleTarget is set. concurrency and rps
// are Knative metrics the HPA cannot read; they leave the metrics to the
// API server's default.
func hpa(meta metav1.ObjectMeta, spec *v1alpha1.InferenceGraphSpec) *autoscalingv2.HorizontalPodAutoscaler {
	return predictor.HPA(meta, spec.MinReplicas, spec.MaxReplicas, hpaMetrics(spec))
}

func hpaMetrics(spec *v1alpha1.InferenceGraphSpec) []autoscalingv2.MetricSpec {
	metric := v1alpha1.ScaleMetric("cpu")
	if spec.ScaleMetric != nil {
		metric = *spec.ScaleMetric
	}
	switch {
	case metric == "cpu":
		target := int32(predictor.DefaultCPUUtilization)
		if spec.ScaleTarget != nil {
			target = *spec.ScaleTarget
		}
		return []autoscalingv2.MetricSpec{predictor.Utilization(corev1.ResourceCPU, target)}
	case metric == "memory" && spec.ScaleTarget != nil:
		return []autoscalingv2.MetricSpec{predictor.Utilization(corev1.ResourceMemory, *spec.ScaleTarget)}
	}
	return nil
}
