package v1beta1

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// ScaleMetric is the metric a component scales on.
// +kubebuilder:validation:Enum=cpu;memory;concurrency;rps
type ScaleMetric string

// The scale metrics.
const (
	MetricCPU         ScaleMetric = "cpu"
	MetricMemory      ScaleMetric = "memory"
	MetricConcurrency ScaleMetric = "concurrency"
	MetricRPS         ScaleMetric = "rps"
)

// AutoScalingSpec configures HPA or KEDA scaling.
type AutoScalingSpec struct {
	// Metrics the autoscaler scales on.
	Metrics []MetricsSpec `json:"metrics,omitempty"`
	// Behavior is the HPA scaling behavior; KEDA reads its stabilization windows.
	// +optional
	Behavior *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

// MetricSourceType is the kind of a scaling metric.
// +kubebuilder:validation:Enum=Resource;External;PodMetric
type MetricSourceType string

// The metric source types.
const (
	ResourceMetricSourceType MetricSourceType = "Resource"
	ExternalMetricSourceType MetricSourceType = "External"
	PodMetricSourceType      MetricSourceType = "PodMetric"
)

// MetricsSpec is one scaling metric: type and the matching source field.
type MetricsSpec struct {
	// Type says which of resource, external or podmetric is set.
	Type MetricSourceType `json:"type"`
	// Resource is a CPU or memory metric of the pods.
	// +optional
	Resource *ResourceMetricSource `json:"resource,omitempty"`
	// External is a metric from a backend outside the cluster, queried by KEDA.
	// +optional
	External *ExternalMetricSource `json:"external,omitempty"`
	// PodMetric is a per-pod metric collected by OpenTelemetry, averaged over pods.
	// +optional
	PodMetric *PodMetricSource `json:"podmetric,omitempty"`
}

// ResourceMetric is a resource a component can scale on.
// +kubebuilder:validation:Enum=cpu;memory
type ResourceMetric string

// The resource metrics.
const (
	ResourceMetricCPU    ResourceMetric = "cpu"
	ResourceMetricMemory ResourceMetric = "memory"
)

// ResourceMetricSource scales on a resource of the pods.
type ResourceMetricSource struct {
	// Name of the resource.
	Name ResourceMetric `json:"name"`
	// Target value of the resource.
	Target MetricTarget `json:"target"`
}

// ExternalMetricSource scales on a query against an external backend.
type ExternalMetricSource struct {
	// Metric is the backend and query.
	Metric ExternalMetrics `json:"metric"`
	// Authentication references KEDA authentication for the backend.
	// +optional
	Authentication *ExtMetricAuthentication `json:"authenticationRef,omitempty"`
	// Target value of the metric.
	Target MetricTarget `json:"target"`
}

// PodMetricSource scales on a metric of each pod.
type PodMetricSource struct {
	// Metric is the backend and query.
	Metric PodMetrics `json:"metric"`
	// Target value of the metric.
	Target MetricTarget `json:"target"`
}

// AuthenticationRef names a KEDA authentication object.
type AuthenticationRef struct {
	// Name of the authentication object.
	Name string `json:"name"`
}

// ExtMetricAuthentication is how KEDA authenticates to an external backend.
type ExtMetricAuthentication struct {
	// AuthenticationRef names the authentication object.
	AuthenticationRef AuthenticationRef `json:"authenticationRef"`
	// AuthModes lists the modes: bearer, basic, tls.
	// +optional
	AuthModes string `json:"authModes,omitempty"`
}

// MetricTargetType says how a metric target is read.
// +kubebuilder:validation:Enum=Utilization;Value;AverageValue
type MetricTargetType string

// The metric target types.
const (
	UtilizationMetricType  MetricTargetType = "Utilization"
	ValueMetricType        MetricTargetType = "Value"
	AverageValueMetricType MetricTargetType = "AverageValue"
)

// MetricTarget is the value a metric is scaled towards.
type MetricTarget struct {
	// Type says which of value, averageValue or averageUtilization applies.
	// +optional
	Type MetricTargetType `json:"type,omitempty"`
	// Value is the target value of the metric.
	// +optional
	Value *MetricQuantity `json:"value,omitempty"`
	// AverageValue is the target of the metric averaged over pods.
	// +optional
	AverageValue *MetricQuantity `json:"averageValue,omitempty"`
	// AverageUtilization is the target percentage of the requested resource,
	// averaged over pods (Resource metrics only).
	// +optional
	AverageUtilization *int32 `json:"averageUtilization,omitempty"`
}

// MetricsBackend is an external metrics backend.
// +kubebuilder:validation:Enum=prometheus;graphite
type MetricsBackend string

// The external metrics backends.
const (
	PrometheusBackend MetricsBackend = "prometheus"
	GraphiteBackend   MetricsBackend = "graphite"
)

// PodsMetricsBackend is a per-pod metrics backend.
// +kubebuilder:validation:Enum=opentelemetry
type PodsMetricsBackend string

// The per-pod metrics backends.
const (
	OpenTelemetryBackend PodsMetricsBackend = "opentelemetry"
)

// ExternalMetrics is a query against an external backend.
type ExternalMetrics struct {
	// Backend is prometheus or graphite.
	// +optional
	Backend MetricsBackend `json:"backend,omitempty"`
	// ServerAddress of the backend.
	// +optional
	ServerAddress string `json:"serverAddress,omitempty"`
	// Query returns the metric.
	// +optional
	Query string `json:"query,omitempty"`
	// Namespace scopes the query.
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// PodMetrics is a query for a per-pod metric.
type PodMetrics struct {
	// Backend is opentelemetry.
	// +optional
	Backend PodsMetricsBackend `json:"backend,omitempty"`
	// ServerAddress of the backend.
	// +optional
	ServerAddress string `json:"serverAddress,omitempty"`
	// MetricNames are the metrics the collector scrapes.
	// +optional
	MetricNames []string `json:"metricNames,omitempty"`
	// Query returns the metric.
	// +optional
	Query string `json:"query,omitempty"`
	// OperationOverTime aggregates samples over time: last_one (the default),
	// avg, max, min, rate or count.
	// +optional
	OperationOverTime string `json:"operationOverTime,omitempty"`
}
