package predictor

import (
	"strconv"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// DefaultCPUUtilization is KServe's target when none is given.
const DefaultCPUUtilization = 80

// hpa builds the HorizontalPodAutoscaler KServe's hpa class uses for a
// predictor. Behavior is left to the API server's defaults:
// autoScaling.behavior is honoured only by KEDA upstream.
func hpa(meta metav1.ObjectMeta, pred *v1beta1.PredictorSpec) *autoscalingv2.HorizontalPodAutoscaler {
	return HPA(meta, pred.MinReplicas, pred.MaxReplicas, hpaMetrics(pred))
}

// HPA scales the Deployment named like meta as KServe's hpa class does: min
// at least 1, max at least min, the given metrics.
func HPA(meta metav1.ObjectMeta, minReplicas *int32, maxReplicas int32, metrics []autoscalingv2.MetricSpec) *autoscalingv2.HorizontalPodAutoscaler {
	low := int32(1)
	if minReplicas != nil && *minReplicas >= 1 {
		low = *minReplicas
	}
	high := max(maxReplicas, low)
	return &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: meta,
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: meta.Name},
			MinReplicas:    &low,
			MaxReplicas:    high,
			Metrics:        metrics,
		},
	}
}

func hpaMetrics(pred *v1beta1.PredictorSpec) []autoscalingv2.MetricSpec {
	if pred.AutoScaling != nil {
		return resourceMetrics(pred.AutoScaling)
	}
	metric := v1beta1.ScaleMetric("cpu")
	if pred.ScaleMetric != nil {
		metric = *pred.ScaleMetric
	}
	switch {
	case metric == "cpu":
		target := int32(DefaultCPUUtilization)
		if pred.ScaleTarget != nil {
			target = *pred.ScaleTarget
		}
		return []autoscalingv2.MetricSpec{Utilization(corev1.ResourceCPU, target)}
	case metric == "memory" && pred.ScaleTarget != nil && pred.ScaleMetricType != nil && *pred.ScaleMetricType == v1beta1.AverageValueMetricType:
		// An AverageValue memory target is in MiB, as admission documents it.
		q := resource.MustParse(strconv.Itoa(int(*pred.ScaleTarget)) + "Mi")
		return []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
			Name: corev1.ResourceMemory, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &q}}}}
	case metric == "memory" && pred.ScaleTarget != nil:
		return []autoscalingv2.MetricSpec{Utilization(corev1.ResourceMemory, *pred.ScaleTarget)}
	}
	return nil
}

// resourceMetrics keeps the Resource metrics of autoScaling; the HPA cannot
// act on External or PodMetric ones (KEDA does).
func resourceMetrics(as *v1beta1.AutoScalingSpec) []autoscalingv2.MetricSpec {
	var out []autoscalingv2.MetricSpec
	for _, m := range as.Metrics {
		if m.Type != v1beta1.ResourceMetricSourceType || m.Resource == nil {
			continue
		}
		name := corev1.ResourceName(m.Resource.Name)
		t := m.Resource.Target
		switch {
		case name == corev1.ResourceCPU:
			target := int32(DefaultCPUUtilization)
			if t.AverageUtilization != nil {
				target = *t.AverageUtilization
			}
			out = append(out, Utilization(name, target))
		case name == corev1.ResourceMemory && t.AverageUtilization != nil:
			out = append(out, Utilization(name, *t.AverageUtilization))
		case name == corev1.ResourceMemory && t.AverageValue != nil:
			q := t.AverageValue.Quantity.DeepCopy()
			out = append(out, autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
				Name: name, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &q}}})
		}
	}
	return out
}

// Utilization is a Resource metric with an average utilization target.
func Utilization(name corev1.ResourceName, target int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: name, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target}}}
}
