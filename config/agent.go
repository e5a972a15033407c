package config

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// DefaultAgentImage is the sidecar image KServe ships for the agent, logger and
// batcher. KServe's code has no default image or resources for these keys (it
// rejects empty quantities), so absent fields take the shipped values.
const DefaultAgentImage = "kserve/agent:latest"

// Logger storage defaults from KServe's code, applied when a storage block is
// configured without them.
const (
	DefaultLoggerStorageKey         = "credentials"
	DefaultLoggerServiceAccountName = "logger-sa"
)

func agentResources() ResourceConfig {
	return ResourceConfig{CPURequest: "100m", CPULimit: "1", MemoryRequest: "100Mi", MemoryLimit: "1Gi"}
}

// AgentConfig is the `agent` key: the sidecar that pulls models, logs
// payloads and batches requests.
type AgentConfig struct {
	Image string `json:"image"`
	ResourceConfig
}

func defaultAgent() AgentConfig {
	return AgentConfig{Image: DefaultAgentImage, ResourceConfig: agentResources()}
}

func (c *AgentConfig) validate() *KeyError {
	orDefault(&c.Image, DefaultAgentImage)
	c.fillFrom(agentResources())
	return c.ResourceConfig.validate("")
}

// LoggerConfig is the `logger` key. Its image field exists for KServe
// compatibility; the injected container uses the agent key's image.
type LoggerConfig struct {
	Image string `json:"image"`
	ResourceConfig
	// DefaultURL is the sink used when an InferenceService's logger sets none.
	DefaultURL    string               `json:"defaultUrl"`
	CABundle      string               `json:"caBundle"`
	CACertFile    string               `json:"caCertFile"`
	TLSSkipVerify bool                 `json:"tlsSkipVerify"`
	Storage       *LoggerStorageConfig `json:"storage"`
	MarshallerURL string               `json:"marshallerUrl,omitempty"`
	BatchSize     int                  `json:"batchSize,omitempty"`
	// BatchInterval is a Go duration ("5s"); the agent parses it as one.
	BatchInterval string `json:"batchInterval,omitempty"`
}

// LoggerStorageConfig sends logged payloads to blob storage.
type LoggerStorageConfig struct {
	Path               string            `json:"path,omitempty"`
	Parameters         map[string]string `json:"parameters,omitempty"`
	StorageKey         string            `json:"key,omitempty"`
	ServiceAccountName string            `json:"serviceAccountName,omitempty"`
}

func defaultLogger() LoggerConfig {
	return LoggerConfig{Image: DefaultAgentImage, ResourceConfig: agentResources(), DefaultURL: "http://default-broker"}
}

func (c *LoggerConfig) validate() *KeyError {
	orDefault(&c.Image, DefaultAgentImage)
	c.fillFrom(agentResources())
	if ke := c.ResourceConfig.validate(""); ke != nil {
		return ke
	}
	if ke := checkAbsoluteURL("defaultUrl", c.DefaultURL); ke != nil {
		return ke
	}
	if ke := checkAbsoluteURL("marshallerUrl", c.MarshallerURL); ke != nil {
		return ke
	}
	if c.BatchSize < 0 {
		return &KeyError{Field: "batchSize", Problem: fmt.Sprintf("%d is negative", c.BatchSize),
			Fix: "use a positive number of records per batch, or remove the field"}
	}
	if c.BatchInterval != "" {
		if d, err := time.ParseDuration(c.BatchInterval); err != nil || d < 0 {
			return &KeyError{Field: "batchInterval", Problem: fmt.Sprintf("%q is not a non-negative duration", c.BatchInterval),
				Fix: `use a Go duration such as "5s" or "500ms"`}
		}
	}
	if c.Storage != nil {
		if c.Storage.StorageKey == "" {
			c.Storage.StorageKey = DefaultLoggerStorageKey
		}
		if c.Storage.ServiceAccountName == "" {
			c.Storage.ServiceAccountName = DefaultLoggerServiceAccountName
		}
		return validateObjectName("storage.serviceAccountName", c.Storage.ServiceAccountName)
	}
	return nil
}

// checkAbsoluteURL accepts "" (unset) or a URL with a scheme and a host, since
// these are where the agent sends requests.
func checkAbsoluteURL(field, value string) *KeyError {
	if value == "" {
		return nil
	}
	u, err := url.Parse(value)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return &KeyError{Field: field, Problem: fmt.Sprintf("%q is not an absolute URL", value),
			Fix: `use a URL with scheme and host, such as "http://default-broker"`}
	}
	return nil
}

// BatcherConfig is the `batcher` key. The batch parameters stay strings, as
// in KServe, because they are passed to the agent as flags verbatim.
type BatcherConfig struct {
	Image string `json:"image"`
	ResourceConfig
	MaxBatchSize string `json:"maxBatchSize"`
	// MaxLatency is in milliseconds.
	MaxLatency string `json:"maxLatency"`
}

func batcherResources() ResourceConfig {
	return ResourceConfig{CPURequest: "1", CPULimit: "1", MemoryRequest: "1Gi", MemoryLimit: "1Gi"}
}

func defaultBatcher() BatcherConfig {
	return BatcherConfig{Image: DefaultAgentImage, ResourceConfig: batcherResources(), MaxBatchSize: "32", MaxLatency: "5000"}
}

func (c *BatcherConfig) validate() *KeyError {
	orDefault(&c.Image, DefaultAgentImage)
	c.fillFrom(batcherResources())
	if ke := c.ResourceConfig.validate(""); ke != nil {
		return ke
	}
	if ke := checkCount("maxBatchSize", c.MaxBatchSize, "a number of requests such as \"32\""); ke != nil {
		return ke
	}
	return checkCount("maxLatency", c.MaxLatency, "milliseconds such as \"5000\"")
}

// checkCount accepts "" (unset) or a non-negative whole number written as a
// string.
func checkCount(field, value, example string) *KeyError {
	if value == "" {
		return nil
	}
	if n, err := strconv.ParseInt(value, 10, 32); err != nil || n < 0 {
		return &KeyError{Field: field, Problem: fmt.Sprintf("%q is not a non-negative whole number", value),
			Fix: "use " + example}
	}
	return nil
}

// MetricsAggregatorConfig is the `metricsAggregator` key: defaults for the
// pod annotations that turn on metric aggregation and Prometheus scraping.
// KServe keeps them as strings; so do we, and the methods read them.
type MetricsAggregatorConfig struct {
	EnableMetricAggregation  string `json:"enableMetricAggregation"`
	EnablePrometheusScraping string `json:"enablePrometheusScraping"`
}

func defaultMetricsAggregator() MetricsAggregatorConfig {
	return MetricsAggregatorConfig{EnableMetricAggregation: "false", EnablePrometheusScraping: "false"}
}

// MetricAggregationEnabled reads EnableMetricAggregation.
func (c MetricsAggregatorConfig) MetricAggregationEnabled() bool {
	v, _ := strconv.ParseBool(c.EnableMetricAggregation)
	return v
}

// PrometheusScrapingEnabled reads EnablePrometheusScraping.
func (c MetricsAggregatorConfig) PrometheusScrapingEnabled() bool {
	v, _ := strconv.ParseBool(c.EnablePrometheusScraping)
	return v
}

func (c *MetricsAggregatorConfig) validate() *KeyError {
	orDefault(&c.EnableMetricAggregation, "false")
	orDefault(&c.EnablePrometheusScraping, "false")
	if ke := checkBoolString("enableMetricAggregation", c.EnableMetricAggregation); ke != nil {
		return ke
	}
	return checkBoolString("enablePrometheusScraping", c.EnablePrometheusScraping)
}
