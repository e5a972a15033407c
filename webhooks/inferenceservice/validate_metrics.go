package inferenceservice

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// validateMetrics checks autoScaling.metrics. The HPA takes Resource metrics
// only; KEDA also takes External and PodMetric ones, each with a query and a
// target value.
func validateMetrics(path *field.Path, as *v1beta1.AutoScalingSpec, keda bool, caps Capabilities) field.ErrorList {
	if as == nil {
		return nil
	}
	var errs field.ErrorList
	for i := range as.Metrics {
		m := &as.Metrics[i]
		p := path.Index(i)
		switch m.Type {
		case v1beta1.ResourceMetricSourceType:
			errs = append(errs, validateResourceMetric(p, m.Resource, keda)...)
		case v1beta1.ExternalMetricSourceType, v1beta1.PodMetricSourceType:
			if !keda {
				errs = append(errs, field.Invalid(p.Child("type"), m.Type, externalNeedsKEDA(caps)))
				continue
			}
			errs = append(errs, validateQueryMetric(p, m)...)
		default:
			errs = append(errs, field.NotSupported(p.Child("type"), string(m.Type), []string{
				string(v1beta1.ResourceMetricSourceType), string(v1beta1.ExternalMetricSourceType), string(v1beta1.PodMetricSourceType)}))
		}
	}
	return errs
}

func externalNeedsKEDA(caps Capabilities) string {
	if caps.KEDA {
		return "the hpa autoscaler class scales on Resource metrics (cpu, memory) only; External and PodMetric need the annotation serving.kserve.io/autoscalerClass: keda"
	}
	return "the hpa autoscaler class scales on Resource metrics (cpu, memory) only; External and PodMetric need KEDA, which this installation does not run: use a Resource metric"
}

// validateResourceMetric checks a cpu or memory metric: cpu is a
// utilization percentage; memory a percentage or an average of at least 1Mi.
func validateResourceMetric(p *field.Path, r *v1beta1.ResourceMetricSource, keda bool) field.ErrorList {
	if r == nil {
		return field.ErrorList{field.Required(p.Child("resource"), "a Resource metric needs resource: {name: cpu or memory, target}")}
	}
	target := p.Child("resource", "target")
	t := r.Target
	switch r.Name {
	case v1beta1.ResourceMetricCPU:
		if t.Type != v1beta1.UtilizationMetricType {
			return field.ErrorList{field.Invalid(target.Child("type"), t.Type,
				"cpu targets are a percentage of the requested cpu: set type Utilization with averageUtilization from 1 to 100")}
		}
		if t.AverageUtilization == nil && !keda {
			return nil // the HPA's default, 80%
		}
	case v1beta1.ResourceMetricMemory:
		if t.Type != v1beta1.UtilizationMetricType && t.Type != v1beta1.AverageValueMetricType {
			return field.ErrorList{field.Invalid(target.Child("type"), t.Type,
				"memory targets are Utilization (averageUtilization, a percentage) or AverageValue (averageValue, e.g. 512Mi)")}
		}
		if t.Type == v1beta1.AverageValueMetricType && t.AverageValue != nil && t.AverageValue.Quantity.Cmp(minMemoryTarget) < 0 {
			return field.ErrorList{field.Invalid(target.Child("averageValue"), t.AverageValue.String(),
				"the memory target must be at least 1Mi (e.g. 512Mi)")}
		}
	default:
		return field.ErrorList{field.NotSupported(p.Child("resource", "name"), string(r.Name),
			[]string{string(v1beta1.ResourceMetricCPU), string(v1beta1.ResourceMetricMemory)})}
	}
	return validateTarget(target, t)
}

// validateQueryMetric checks an External or PodMetric metric for KEDA.
func validateQueryMetric(p *field.Path, m *v1beta1.MetricsSpec) field.ErrorList {
	var query string
	var target v1beta1.MetricTarget
	child := "external"
	switch {
	case m.Type == v1beta1.ExternalMetricSourceType && m.External != nil:
		query, target = m.External.Metric.Query, m.External.Target
	case m.Type == v1beta1.PodMetricSourceType && m.PodMetric != nil:
		child = "podmetric"
		query, target = m.PodMetric.Metric.Query, m.PodMetric.Target
	default:
		what := "an External metric"
		if m.Type == v1beta1.PodMetricSourceType {
			child, what = "podmetric", "a PodMetric metric"
		}
		return field.ErrorList{field.Required(p.Child(child), what+" needs "+child+": {metric: {backend, query}, target}")}
	}
	var errs field.ErrorList
	if query == "" {
		errs = append(errs, field.Required(p.Child(child, "metric", "query"), "set the query that returns the metric"))
	}
	if target.Value == nil {
		errs = append(errs, field.Required(p.Child(child, "target", "value"), "set the target value (threshold) the autoscaler scales towards"))
	}
	return append(errs, validateTarget(p.Child(child, "target"), target)...)
}

// validateTarget checks that the field a target type reads is set.
func validateTarget(path *field.Path, t v1beta1.MetricTarget) field.ErrorList {
	switch t.Type {
	case v1beta1.UtilizationMetricType:
		if t.AverageUtilization == nil {
			return field.ErrorList{field.Required(path.Child("averageUtilization"), "a Utilization target needs averageUtilization, a percentage from 1 to 100")}
		}
		if u := *t.AverageUtilization; u < 1 || u > 100 {
			return field.ErrorList{field.Invalid(path.Child("averageUtilization"), u, "is a percentage: use a whole number from 1 to 100")}
		}
	case v1beta1.AverageValueMetricType:
		if t.AverageValue == nil {
			return field.ErrorList{field.Required(path.Child("averageValue"), "an AverageValue target needs averageValue")}
		}
	case v1beta1.ValueMetricType:
		if t.Value == nil {
			return field.ErrorList{field.Required(path.Child("value"), "a Value target needs value")}
		}
	}
	return nil
}
