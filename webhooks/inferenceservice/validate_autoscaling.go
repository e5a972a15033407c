package inferenceservice

import (
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// knativeHPAClass is the value of autoscaling.knative.dev/class that makes
// Knative use an HPA instead of its own autoscaler.
const knativeHPAClass = "hpa.autoscaling.knative.dev"

// minMemoryTarget is the smallest memory target KServe accepts.
var minMemoryTarget = resource.MustParse("1Mi")

// validateAutoscaling applies the rules of the autoscaler that will scale
// the component: in Standard mode the HPA (the default class) or KEDA; in
// the other modes Knative's autoscaler, or an HPA when Knative is told to
// use one. The external and none classes scale nothing, so nothing is checked.
func validateAutoscaling(c *component, isvcAnnotations map[string]string, mode config.DeploymentMode, caps Capabilities) field.ErrorList {
	if mode != config.Standard {
		if isvcAnnotations[v1beta1.KnativeAutoscalingClassAnnotation] == knativeHPAClass {
			return validateHPA(c.path, c.ext, caps)
		}
		return validateKPA(c.path, c.ext)
	}
	switch effectiveAutoscalerClass(c.ext.Annotations, isvcAnnotations) {
	case v1beta1.AutoscalerClassHPA:
		return validateHPA(c.path, c.ext, caps)
	case v1beta1.AutoscalerClassKeda:
		if caps.KEDA {
			return validateKEDA(c.path, c.ext)
		}
	}
	return nil
}

// effectiveAutoscalerClass is the class the controller uses for a component:
// its own annotation, else the InferenceService's, else hpa.
func effectiveAutoscalerClass(component, isvc map[string]string) v1beta1.AutoscalerClass {
	for _, src := range []map[string]string{component, isvc} {
		if c, ok := src[v1beta1.AutoscalerClassAnnotation]; ok && c != "" {
			return v1beta1.AutoscalerClass(c)
		}
	}
	return v1beta1.AutoscalerClassHPA
}

// validateHPA checks settings an HorizontalPodAutoscaler can honour:
// scaleMetric cpu or memory with a matching target, and Resource metrics.
func validateHPA(path *field.Path, ext *v1beta1.ComponentExtensionSpec, caps Capabilities) field.ErrorList {
	metric := v1beta1.MetricCPU
	if ext.ScaleMetric != nil {
		metric = *ext.ScaleMetric
	}
	var errs field.ErrorList
	switch metric {
	case v1beta1.MetricCPU, v1beta1.MetricMemory:
		errs = append(errs, validateHPATarget(path, ext, metric)...)
	default:
		errs = append(errs, field.Invalid(path.Child("scaleMetric"), metric,
			"the hpa autoscaler scales on cpu or memory; concurrency and rps need Knative's autoscaler: use cpu or memory"))
	}
	if ext.AutoScaling != nil {
		for _, name := range []string{"scaleMetric", "scaleTarget", "scaleMetricType"} {
			if isSet(ext, name) {
				errs = append(errs, field.Forbidden(path.Child(name),
					"the HPA is built from autoScaling when it is set, so "+name+" would be ignored: describe the target in autoScaling.metrics and remove "+name))
			}
		}
		if ext.AutoScaling.Behavior != nil {
			errs = append(errs, field.Forbidden(path.Child("autoScaling", "behavior"),
				"the hpa autoscaler class does not apply autoScaling.behavior (KServe passes it to KEDA only); remove it"))
		}
	}
	return append(errs, validateMetrics(path.Child("autoScaling", "metrics"), ext.AutoScaling, false, caps)...)
}

// validateHPATarget checks scaleTarget against scaleMetricType: cpu targets
// are utilization percentages; memory targets are percentages too, or, with
// scaleMetricType AverageValue, an amount in MiB of any size (KServe rejects
// every memory target above 100, whatever its type).
func validateHPATarget(path *field.Path, ext *v1beta1.ComponentExtensionSpec, metric v1beta1.ScaleMetric) field.ErrorList {
	targetType := v1beta1.UtilizationMetricType
	if ext.ScaleMetricType != nil {
		targetType = *ext.ScaleMetricType
	}
	switch {
	case metric == v1beta1.MetricCPU && targetType != v1beta1.UtilizationMetricType:
		return field.ErrorList{field.Invalid(path.Child("scaleMetricType"), targetType,
			"cpu targets are a percentage of the requested cpu: set scaleMetricType to Utilization or remove it")}
	case targetType != v1beta1.UtilizationMetricType && targetType != v1beta1.AverageValueMetricType:
		return field.ErrorList{field.Invalid(path.Child("scaleMetricType"), targetType,
			"memory targets are Utilization (a percentage of the request) or AverageValue (MiB per pod)")}
	}
	if ext.ScaleTarget == nil {
		return nil
	}
	target := *ext.ScaleTarget
	if targetType == v1beta1.AverageValueMetricType {
		if target < 1 {
			return field.ErrorList{field.Invalid(path.Child("scaleTarget"), target,
				"the memory target is MiB per pod with scaleMetricType AverageValue: use 1 or more")}
		}
		return nil
	}
	if target < 1 || target > 100 {
		return field.ErrorList{field.Invalid(path.Child("scaleTarget"), target,
			"the target utilization is a percentage: use a whole number from 1 to 100 (for a memory amount set scaleMetricType: AverageValue)")}
	}
	return nil
}

// validateKEDA checks what KEDA can scale on: autoScaling.metrics only.
func validateKEDA(path *field.Path, ext *v1beta1.ComponentExtensionSpec) field.ErrorList {
	var errs field.ErrorList
	if ext.ScaleMetric != nil {
		errs = append(errs, field.Forbidden(path.Child("scaleMetric"),
			"KEDA scales on autoScaling.metrics; remove scaleMetric and describe the metric there"))
	}
	return append(errs, validateMetrics(path.Child("autoScaling", "metrics"), ext.AutoScaling, true, Capabilities{KEDA: true})...)
}

// validateKPA checks what Knative's autoscaler can honour.
func validateKPA(path *field.Path, ext *v1beta1.ComponentExtensionSpec) field.ErrorList {
	var errs field.ErrorList
	if ext.DeploymentStrategy != nil {
		errs = append(errs, field.Forbidden(path.Child("deploymentStrategy"),
			"Knative rolls out revisions itself; deploymentStrategy applies in Standard mode only: remove it"))
	}
	metric := v1beta1.MetricConcurrency
	if ext.ScaleMetric != nil {
		metric = *ext.ScaleMetric
	}
	switch metric {
	case v1beta1.MetricConcurrency:
	case v1beta1.MetricRPS:
		if ext.ScaleTarget != nil && *ext.ScaleTarget < 1 {
			errs = append(errs, field.Invalid(path.Child("scaleTarget"), *ext.ScaleTarget,
				"the rps target is requests per second per replica: use 1 or more"))
		}
	default:
		errs = append(errs, field.Invalid(path.Child("scaleMetric"), metric,
			"Knative's autoscaler scales on concurrency or rps; for cpu or memory add the annotation autoscaling.knative.dev/class: hpa.autoscaling.knative.dev"))
	}
	return errs
}

func isSet(ext *v1beta1.ComponentExtensionSpec, name string) bool {
	switch name {
	case "scaleMetric":
		return ext.ScaleMetric != nil
	case "scaleTarget":
		return ext.ScaleTarget != nil
	}
	return ext.ScaleMetricType != nil
}
