package localmodel

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/steps/predictor"
)

// Download Job labels: KServe's model, node and modelNamespace (namespace
// caches only), plus fsmserve's managed-by (the agent's cache holds only
// those) and the attempt number.
const (
	JobLabelModel          = "model"
	JobLabelNode           = "node"
	JobLabelModelNamespace = "modelNamespace"
	JobLabelAttempt        = "localmodel.fsmserve.io/attempt"
	// JobAnnotationModelKey holds the model's full status key, which a label
	// value may be too short for.
	JobAnnotationModelKey = "localmodel.fsmserve.io/model-key"
)

// KServe's names inside the download Job.
const (
	DownloadContainerName = "kserve-localmodel-download"
	DownloadVolumeName    = "kserve-pvc-source"
	DownloadMountPath     = "/mnt/models"
)

// jobNameHashLen is the length of the hash that ends every download Job name.
const jobNameHashLen = 8

// DownloadJobName is the one name the download Job of a model on a node ever
// has: KServe's prefix {model}-{node}, cut to fit, and a hash of node,
// namespace and model. Because it is deterministic, the API server refuses a
// second Job for the same (node, model) however many agents race to create it.
func DownloadJobName(node string, m *v1alpha1.LocalModelInfo) string {
	sum := sha256.Sum256([]byte(node + "\x00" + m.Namespace + "\x00" + m.ModelName))
	suffix := "-" + hex.EncodeToString(sum[:])[:jobNameHashLen]
	prefix := m.ModelName + "-" + node
	// A Job's name becomes the value of its pods' job-name label: 63 at most.
	if limit := maxLabelValue - len(suffix); len(prefix) > limit {
		prefix = prefix[:limit]
	}
	for len(prefix) > 0 && (prefix[len(prefix)-1] == '-' || prefix[len(prefix)-1] == '.') {
		prefix = prefix[:len(prefix)-1]
	}
	return prefix + suffix
}

// DownloadJobLabels are the labels of the download Job of m on node.
func DownloadJobLabels(node string, m *v1alpha1.LocalModelInfo, attempt int) map[string]string {
	out := map[string]string{
		predictor.ManagedByLabel: predictor.ManagedByValue,
		JobLabelModel:            labelValue(m.ModelName),
		JobLabelNode:             labelValue(node),
		JobLabelAttempt:          strconv.Itoa(attempt),
	}
	if m.Namespace != "" {
		out[JobLabelModelNamespace] = m.Namespace
	}
	return out
}

// DownloadJobSelector selects the download Jobs of m on node, whatever their
// attempt; a cluster cache's selector leaves out a namespace cache's Jobs of
// the same model name.
func DownloadJobSelector(node string, m *v1alpha1.LocalModelInfo) labels.Selector {
	set := labels.Set{predictor.ManagedByLabel: predictor.ManagedByValue, JobLabelModel: labelValue(m.ModelName), JobLabelNode: labelValue(node)}
	if m.Namespace != "" {
		set[JobLabelModelNamespace] = m.Namespace
		return labels.SelectorFromSet(set)
	}
	none, _ := labels.NewRequirement(JobLabelModelNamespace, selection.DoesNotExist, nil)
	return labels.SelectorFromSet(set).Add(*none)
}

// NodeJobSelector selects every download Job fsmserve made for node.
func NodeJobSelector(node string) labels.Selector {
	return labels.SelectorFromSet(labels.Set{predictor.ManagedByLabel: predictor.ManagedByValue, JobLabelNode: labelValue(node)})
}

// ModelKeyOfJob returns the status key of the model a download Job is for.
func ModelKeyOfJob(annotations, l map[string]string) (string, bool) {
	if key, ok := annotations[JobAnnotationModelKey]; ok {
		return key, true
	}
	model, ok := l[JobLabelModel]
	if !ok {
		return "", false
	}
	if ns := l[JobLabelModelNamespace]; ns != "" {
		return ns + "/" + model, true
	}
	return model, true
}

// AttemptOfJob reads the attempt label; 0 when absent (a Job KServe made).
func AttemptOfJob(l map[string]string) int {
	n, err := strconv.Atoi(l[JobLabelAttempt])
	if err != nil || n < 0 {
		return 0
	}
	return n
}
