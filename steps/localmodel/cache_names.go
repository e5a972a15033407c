// Package localmodel builds what local model caching needs: the names,
// labels and specs of the PersistentVolumes and claims of a cache, the
// entries a cache writes into LocalModelNodes, node-group membership from a
// PersistentVolume template's node affinity, and the per-node status of a
// cache. Builders are pure; the controllers apply them.
package localmodel

import (
	"crypto/sha256"
	"encoding/hex"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/fsmserve/fsmserve/steps/predictor"
)

// CacheRef names a cache: a LocalModelCache (Namespace empty) or a
// LocalModelNamespaceCache.
type CacheRef struct {
	Name      string
	Namespace string
}

// Labels on the volumes of a cache, so the controller finds them again
// (and the manager's cache, filtered on managed-by, holds only those).
const (
	LabelCache          = "localmodel.fsmserve.io/cache"
	LabelCacheNamespace = "localmodel.fsmserve.io/cache-namespace"
	LabelPurpose        = "localmodel.fsmserve.io/purpose"
	LabelNodeGroup      = "localmodel.fsmserve.io/node-group"
	// LabelServedNamespace on a serving PersistentVolume names the namespace
	// whose claim binds it, so it goes with that claim.
	LabelServedNamespace = "localmodel.fsmserve.io/served-namespace"
	PurposeDownload      = "download"
	PurposeServing       = "serving"
)

// DownloadPVName is KServe's name of the PersistentVolume the download Jobs
// of a node group write to: {cache}-{group}-download, or
// {cache}-{group}-{namespace}-download for a namespace cache.
func DownloadPVName(c CacheRef, group string) string {
	if c.Namespace == "" {
		return c.Name + "-" + group + "-download"
	}
	return c.Name + "-" + group + "-" + c.Namespace + "-download"
}

// DownloadPVCName is KServe's name of the claim in the job namespace that the
// download Jobs of a node group mount: {cache}-{group}, or
// {cache}-{group}-{namespace}-download for a namespace cache.
func DownloadPVCName(c CacheRef, group string) string {
	if c.Namespace == "" {
		return c.Name + "-" + group
	}
	return DownloadPVName(c, group)
}

// ServingPVName is the PersistentVolume behind the serving claim of a
// namespace that uses the cache: {cache}-{group}-{namespace}.
func ServingPVName(c CacheRef, group, namespace string) string {
	return c.Name + "-" + group + "-" + namespace
}

// ServingPVCName is the claim InferenceServices of a namespace mount,
// {cache}-{group}; the InferenceService defaulter writes the same name into
// annotation internal.serving.kserve.io/localmodel-pvc-name.
func ServingPVCName(c CacheRef, group string) string {
	return c.Name + "-" + group
}

// VolumeLabels are the labels of a cache's volume with the given purpose,
// for the given node group.
func VolumeLabels(c CacheRef, purpose, group string) map[string]string {
	out := map[string]string{
		predictor.ManagedByLabel: predictor.ManagedByValue,
		LabelCache:               labelValue(c.Name),
		LabelPurpose:             purpose,
		LabelNodeGroup:           labelValue(group),
	}
	if c.Namespace != "" {
		out[LabelCacheNamespace] = c.Namespace
	}
	return out
}

// VolumeSelector selects the volumes of one cache with the given purpose (any
// purpose when empty); a cluster cache's selector excludes namespace caches
// of the same name.
func VolumeSelector(c CacheRef, purpose string) labels.Selector {
	set := labels.Set{predictor.ManagedByLabel: predictor.ManagedByValue, LabelCache: labelValue(c.Name)}
	if purpose != "" {
		set[LabelPurpose] = purpose
	}
	if c.Namespace != "" {
		set[LabelCacheNamespace] = c.Namespace
		return labels.SelectorFromSet(set)
	}
	none, _ := labels.NewRequirement(LabelCacheNamespace, selection.DoesNotExist, nil)
	return labels.SelectorFromSet(set).Add(*none)
}

// NodeGroupOfVolume tells whether a volume's labels say it serves group.
func NodeGroupOfVolume(l map[string]string, group string) bool {
	return l[LabelNodeGroup] == labelValue(group)
}

// CacheOfVolume returns the cache a volume belongs to, from its labels. For a
// cache name too long for a label value it returns the shortened value, which
// names no cache (a watch then enqueues a request that finds nothing).
func CacheOfVolume(l map[string]string) (CacheRef, bool) {
	name, ok := l[LabelCache]
	if !ok || l[predictor.ManagedByLabel] != predictor.ManagedByValue {
		return CacheRef{}, false
	}
	return CacheRef{Name: name, Namespace: l[LabelCacheNamespace]}, true
}

const (
	maxLabelValue = 63
	hashLen       = 10
)

// labelValue keeps a name within a label value's 63 characters: longer names
// are cut and end in a hash of the whole name, so they stay distinct.
func labelValue(name string) string {
	if len(name) <= maxLabelValue {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return name[:maxLabelValue-hashLen-1] + "-" + hex.EncodeToString(sum[:])[:hashLen]
}
