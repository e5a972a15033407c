package pod

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// loggerSettings is the logger config with the InferenceService's predictor
// logger laid over it.
type loggerSettings struct {
	defaultURL    string
	caBundle      string
	caCertFile    string
	tlsSkipVerify bool
	storage       *loggerStorage
	marshallerURL string
	batchSize     int
	batchInterval string
}

// loggerStorage is where logged payloads go in blob storage.
type loggerStorage struct {
	path, format, serviceAccountName string
}

// resolveLogger follows KServe: when the predictor has a logger block, its
// storage replaces the config's (even when the block has none), and its
// marshaller and batch settings override the config's when set.
func resolveLogger(cfg *config.LoggerConfig, isvc *v1beta1.InferenceService) loggerSettings {
	s := loggerSettings{
		defaultURL: cfg.DefaultURL, caBundle: cfg.CABundle, caCertFile: cfg.CACertFile, tlsSkipVerify: cfg.TLSSkipVerify,
		storage: storageFromConfig(cfg.Storage), marshallerURL: cfg.MarshallerURL, batchSize: cfg.BatchSize, batchInterval: cfg.BatchInterval,
	}
	if isvc == nil || isvc.Spec.Predictor.Logger == nil {
		return s
	}
	l := isvc.Spec.Predictor.Logger
	s.storage = storageFromSpec(l.Storage)
	if l.MarshallerURL != nil {
		s.marshallerURL = *l.MarshallerURL
	}
	if l.BatchSize != nil {
		s.batchSize = *l.BatchSize
	}
	if l.BatchInterval != nil {
		s.batchInterval = *l.BatchInterval
	}
	return s
}

func storageFromConfig(c *config.LoggerStorageConfig) *loggerStorage {
	if c == nil {
		return nil
	}
	return &loggerStorage{path: c.Path, format: c.Parameters["format"], serviceAccountName: orDefault(c.ServiceAccountName, config.DefaultLoggerServiceAccountName)}
}

func storageFromSpec(s *v1beta1.LoggerStorageSpec) *loggerStorage {
	if s == nil {
		return nil
	}
	out := &loggerStorage{serviceAccountName: config.DefaultLoggerServiceAccountName}
	if s.Path != nil {
		out.path = *s.Path
	}
	if s.Parameters != nil {
		out.format = (*s.Parameters)["format"]
	}
	if s.ServiceAccountName != nil && *s.ServiceAccountName != "" {
		out.serviceAccountName = *s.ServiceAccountName
	}
	return out
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// loggerArgs are the agent's logger flags, in KServe's order.
func loggerArgs(pod *corev1.Pod, s loggerSettings) []string {
	a := pod.Annotations
	args := []string{
		"--log-url", orDefault(a[v1beta1.LoggerSinkURLInternalAnnotation], s.defaultURL),
		"--source-uri", pod.Name,
		"--log-mode", orDefault(a[v1beta1.LoggerModeInternalAnnotation], string(v1beta1.LogAll)),
		"--inference-service", pod.Labels[v1beta1.InferenceServiceLabel],
		"--namespace", pod.Namespace,
		"--endpoint", pod.Labels[endpointLabel],
		"--component", pod.Labels[v1beta1.ComponentLabel],
	}
	if s.storage != nil && s.storage.path != "" {
		args = append(args, "--log-store-path", s.storage.path)
	}
	if s.storage != nil && s.storage.format != "" {
		args = append(args, "--log-store-format", s.storage.format)
	}
	if s.marshallerURL != "" {
		args = append(args, "--log-marshaller-url", s.marshallerURL)
	}
	if s.batchSize > 0 {
		args = append(args, "--log-batch-size", strconv.Itoa(s.batchSize))
	}
	if s.batchInterval != "" {
		args = append(args, "--log-batch-interval", s.batchInterval)
	}
	if headers, ok := a[v1beta1.LoggerMetadataHeadersInternalAnnotation]; ok {
		args = append(args, "--metadata-headers", headers)
	}
	if keys, ok := a[v1beta1.LoggerMetadataAnnotationsInternalAnnotation]; ok {
		args = append(args, "--metadata-annotations", metadataAnnotationPairs(a, keys))
	}
	if s.caCertFile != "" {
		args = append(args, "--logger-ca-cert-file", s.caCertFile)
	}
	return append(args, "--logger-tls-skip-verify", strconv.FormatBool(s.tlsSkipVerify))
}

// metadataAnnotationPairs turns the annotation names the logger copies into
// key=value pairs from the pod's annotations; names the pod lacks are left out.
func metadataAnnotationPairs(annotations map[string]string, keys string) string {
	var pairs []string
	for _, k := range strings.Split(keys, ",") {
		if v, ok := annotations[k]; ok {
			pairs = append(pairs, fmt.Sprintf("%s=%s", k, v))
		}
	}
	return strings.Join(pairs, ",")
}

// batcherArgs: the InferenceService's batcher settings, else the batcher
// config's (which default to the agent's own defaults, 32 and 5000 ms).
func batcherArgs(annotations map[string]string, cfg *config.BatcherConfig) []string {
	args := []string{"--enable-batcher"}
	if v := orDefault(annotations[v1beta1.BatcherMaxBatchSizeInternalAnnotation], nonZero(cfg.MaxBatchSize)); v != "" {
		args = append(args, "--max-batchsize", v)
	}
	if v := orDefault(annotations[v1beta1.BatcherMaxLatencyInternalAnnotation], nonZero(cfg.MaxLatency)); v != "" {
		args = append(args, "--max-latency", v)
	}
	return args
}

// nonZero: "0" in the batcher config means "not set", as in KServe.
func nonZero(v string) string {
	if v == "0" {
		return ""
	}
	return v
}

// pullerArgs turn on the model puller of multi-model serving.
func pullerArgs(annotations map[string]string) []string {
	args := []string{"--enable-puller"}
	if dir, ok := annotations[v1beta1.AgentConfigMountPathInternalAnnotation]; ok {
		args = append(args, "--config-dir", dir)
	}
	if dir, ok := annotations[v1beta1.AgentModelDirInternalAnnotation]; ok {
		args = append(args, "--model-dir", dir)
	}
	return args
}
