package predictor

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// ManagedByLabel marks every child fsmserve creates; the manager's caches are
// filtered on it so they hold fsmserve's children, not every Deployment or
// Service in the cluster.
const (
	ManagedByLabel = "app.kubernetes.io/managed-by"
	ManagedByValue = "fsmserve"
)

// storagePathPlaceholder stands for the scheme of a storage.path URI until the
// pod mutator resolves it from the storage secret, as KServe writes it.
const storagePathPlaceholder = "<scheme-placeholder>"

// componentLabels are the labels KServe puts on the predictor's Deployment,
// pod template, Service and HPA, later sources winning: runtime pod labels,
// InferenceService labels, predictor labels, then KServe's own keys.
func componentLabels(isvc *v1beta1.InferenceService, runtimeLabels map[string]string, deploymentName string) map[string]string {
	labels := map[string]string{}
	for _, src := range []map[string]string{runtimeLabels, isvc.Labels, isvc.Spec.Predictor.Labels} {
		for k, v := range src {
			labels[k] = v
		}
	}
	labels[v1beta1.InferenceServiceLabel] = isvc.Name
	labels[v1beta1.ComponentLabel] = string(v1beta1.PredictorComponent)
	labels[v1beta1.AppLabel] = "isvc." + deploymentName
	labels[ManagedByLabel] = ManagedByValue
	return labels
}

// componentAnnotations are the runtime's pod annotations, the InferenceService's
// and the predictor's, each filtered by the configured disallowed list, plus the
// internal annotations the pod mutator reads (added after filtering).
func componentAnnotations(isvc *v1beta1.InferenceService, runtimeAnnotations map[string]string, cfg *config.InferenceServiceConfig) map[string]string {
	out := map[string]string{}
	copyAllowed := func(src map[string]string) {
		for k, v := range src {
			if !cfg.IsAnnotationDisallowed(k) {
				out[k] = v
			}
		}
	}
	copyAllowed(runtimeAnnotations)
	copyAllowed(isvc.Annotations)
	for k, v := range internalAnnotations(&isvc.Spec.Predictor) {
		out[k] = v
	}
	copyAllowed(isvc.Spec.Predictor.Annotations)
	return out
}

// internalAnnotations carry what the pod mutator needs to inject the storage
// initializer and the agent into the predictor's pods.
func internalAnnotations(p *v1beta1.PredictorSpec) map[string]string {
	out := map[string]string{}
	if uri := p.GetStorageUri(); uri != nil && *uri != "" {
		out[v1beta1.StorageInitializerSourceURIAnnotation] = *uri
	}
	if p.StorageContainerName != nil {
		out[v1beta1.StorageContainerNameAnnotation] = *p.StorageContainerName
	}
	if impl := p.GetImplementation(); impl != nil && impl.Extension != nil {
		addStorageSpec(out, impl.Extension)
		addConfidential(out, impl.Extension.Confidential)
	}
	addLogger(out, p.Logger)
	addBatcher(out, p.Batcher)
	return out
}

func addStorageSpec(out map[string]string, ext *v1beta1.PredictorExtensionSpec) {
	s := ext.Storage
	if s == nil {
		return
	}
	out[v1beta1.StorageSpecAnnotation] = "true"
	if s.Path != nil && ext.StorageURI == nil {
		out[v1beta1.StorageInitializerSourceURIAnnotation] = storagePathPlaceholder + "://" + strings.TrimPrefix(*s.Path, "/")
	}
	if s.Parameters != nil {
		if raw, err := json.Marshal(*s.Parameters); err == nil {
			out[v1beta1.StorageSpecParamAnnotation] = string(raw)
		}
	}
	if s.StorageKey != nil {
		out[v1beta1.StorageSpecKeyAnnotation] = *s.StorageKey
	}
}

func addConfidential(out map[string]string, c *v1beta1.ConfidentialSpec) {
	if c == nil || !c.Enabled {
		return
	}
	out[v1beta1.ConfidentialEnabledInternalAnnotation] = "true"
	if c.ResourceId != nil {
		out[v1beta1.ConfidentialResourceIDInternalAnnotation] = *c.ResourceId
	}
}

func addLogger(out map[string]string, l *v1beta1.LoggerSpec) {
	if l == nil {
		return
	}
	out[v1beta1.LoggerInternalAnnotation] = "true"
	if l.URL != nil {
		out[v1beta1.LoggerSinkURLInternalAnnotation] = *l.URL
	}
	mode := l.Mode
	if mode == "" {
		mode = v1beta1.LogAll
	}
	out[v1beta1.LoggerModeInternalAnnotation] = string(mode)
	if len(l.MetadataHeaders) > 0 {
		out[v1beta1.LoggerMetadataHeadersInternalAnnotation] = strings.Join(l.MetadataHeaders, ",")
	}
	if len(l.MetadataAnnotations) > 0 {
		out[v1beta1.LoggerMetadataAnnotationsInternalAnnotation] = strings.Join(l.MetadataAnnotations, ",")
	}
}

func addBatcher(out map[string]string, b *v1beta1.Batcher) {
	if b == nil {
		return
	}
	out[v1beta1.BatcherInternalAnnotation] = "true"
	if b.MaxBatchSize != nil {
		out[v1beta1.BatcherMaxBatchSizeInternalAnnotation] = strconv.Itoa(*b.MaxBatchSize)
	}
	if b.MaxLatency != nil {
		out[v1beta1.BatcherMaxLatencyInternalAnnotation] = strconv.Itoa(*b.MaxLatency)
	}
}
