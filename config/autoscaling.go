package config

import (
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// OpenTelemetry collector defaults: the values KServe ships. KServe's code
// leaves them empty, which yields a sidecar collector with no scrape interval
// and no export target, so the shipped values are the only working default.
// Resources stay unset, as in KServe's code.
const (
	DefaultOTelScrapeInterval         = "5s"
	DefaultOTelMetricReceiverEndpoint = "keda-otel-scaler.keda.svc:4317"
	DefaultOTelMetricScalerEndpoint   = "keda-otel-scaler.keda.svc:4318"
)

// OpenTelemetryCollectorConfig is the `opentelemetryCollector` key, used when
// an InferenceService autoscales with KEDA on OpenTelemetry metrics.
type OpenTelemetryCollectorConfig struct {
	ScrapeInterval string `json:"scrapeInterval,omitempty"`
	// MetricReceiverEndpoint is where the sidecar collector sends OTLP.
	MetricReceiverEndpoint string `json:"metricReceiverEndpoint,omitempty"`
	// MetricScalerEndpoint is the KEDA external scaler address.
	MetricScalerEndpoint string         `json:"metricScalerEndpoint,omitempty"`
	Resource             ResourceConfig `json:"resource,omitempty"`
}

func defaultOpenTelemetryCollector() OpenTelemetryCollectorConfig {
	return OpenTelemetryCollectorConfig{
		ScrapeInterval:         DefaultOTelScrapeInterval,
		MetricReceiverEndpoint: DefaultOTelMetricReceiverEndpoint,
		MetricScalerEndpoint:   DefaultOTelMetricScalerEndpoint,
	}
}

// Resources are the sidecar collector's resources; unset entries stay unset.
func (c OpenTelemetryCollectorConfig) Resources() corev1.ResourceRequirements {
	return c.Resource.Resources()
}

func (c *OpenTelemetryCollectorConfig) validate() *KeyError {
	orDefault(&c.ScrapeInterval, DefaultOTelScrapeInterval)
	orDefault(&c.MetricReceiverEndpoint, DefaultOTelMetricReceiverEndpoint)
	orDefault(&c.MetricScalerEndpoint, DefaultOTelMetricScalerEndpoint)
	if d, err := time.ParseDuration(c.ScrapeInterval); err != nil || d <= 0 {
		return &KeyError{Field: "scrapeInterval", Problem: fmt.Sprintf("%q is not a positive duration", c.ScrapeInterval),
			Fix: `use a duration such as "5s"`}
	}
	return c.Resource.validate("resource.")
}

// AutoscalerConfig is the `autoscaler` key: stabilisation windows used for
// KEDA-scaled InferenceServices that do not set their own. Strings, as in
// KServe; empty means "no fallback".
type AutoscalerConfig struct {
	ScaleUpStabilizationWindowSeconds   string `json:"scaleUpStabilizationWindowSeconds,omitempty"`
	ScaleDownStabilizationWindowSeconds string `json:"scaleDownStabilizationWindowSeconds,omitempty"`
}

// maxStabilizationWindowSeconds is the HorizontalPodAutoscaler API's limit.
const maxStabilizationWindowSeconds = 3600

// ScaleUpStabilizationWindow returns the configured window, or nil when unset.
func (c AutoscalerConfig) ScaleUpStabilizationWindow() *int32 {
	return windowSeconds(c.ScaleUpStabilizationWindowSeconds)
}

// ScaleDownStabilizationWindow returns the configured window, or nil when unset.
func (c AutoscalerConfig) ScaleDownStabilizationWindow() *int32 {
	return windowSeconds(c.ScaleDownStabilizationWindowSeconds)
}

func windowSeconds(s string) *int32 {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return nil
	}
	v := int32(n)
	return &v
}

func (c *AutoscalerConfig) validate() *KeyError {
	fields := []struct{ name, value string }{
		{"scaleUpStabilizationWindowSeconds", c.ScaleUpStabilizationWindowSeconds},
		{"scaleDownStabilizationWindowSeconds", c.ScaleDownStabilizationWindowSeconds},
	}
	for _, f := range fields {
		if f.value == "" {
			continue
		}
		n, err := strconv.ParseInt(f.value, 10, 32)
		if err != nil || n < 0 || n > maxStabilizationWindowSeconds {
			return &KeyError{Field: f.name, Problem: fmt.Sprintf("%q is not a whole number of seconds between 0 and %d", f.value, maxStabilizationWindowSeconds),
				Fix: `use a quoted number of seconds such as "300"`}
		}
	}
	return nil
}
