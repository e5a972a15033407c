package localmodel

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// ConfigLoader returns the current inferenceservice-config: the parsed
// configuration, the keys it rejected (nil when none), and an error when it
// could not be read at all.
type ConfigLoader func(ctx context.Context) (*config.Config, *config.Errors, error)

// Labeler points an InferenceService at the local model cache that holds its
// model (KServe's defaulter step 4). It implements the InferenceService
// defaulter's LocalModelLabeler.
type Labeler struct {
	// Client lists the caches.
	Client client.Reader
	// Config loads inferenceservice-config (key localModel); nil means the
	// built-in configuration, where local models are disabled.
	Config ConfigLoader
}

// Label sets or removes the local-model labels and annotations. An
// InferenceService annotated serving.kserve.io/disable-localmodel loses them,
// so it never keeps pointing at a cache it was told not to use. With
// localModel.enabled false nothing is changed, as in KServe.
func (l *Labeler) Label(ctx context.Context, isvc *v1beta1.InferenceService) error {
	enabled, err := l.enabled(ctx)
	if err != nil || !enabled {
		return err
	}
	if _, off := isvc.Annotations[v1beta1.DisableLocalModelAnnotation]; off {
		SetLabels(isvc, nil)
		return nil
	}
	namespaced := &v1alpha1.LocalModelNamespaceCacheList{}
	if err := l.Client.List(ctx, namespaced, client.InNamespace(isvc.Namespace)); err != nil {
		return fmt.Errorf("listing LocalModelNamespaceCaches in %s: %w", isvc.Namespace, err)
	}
	cluster := &v1alpha1.LocalModelCacheList{}
	if err := l.Client.List(ctx, cluster); err != nil {
		return fmt.Errorf("listing LocalModelCaches: %w", err)
	}
	var ns, cl []Candidate
	for _, c := range namespaced.Items {
		ns = append(ns, Candidate{Name: c.Name, Namespace: c.Namespace, SourceModelUri: c.Spec.SourceModelUri, NodeGroups: c.Spec.NodeGroups})
	}
	for _, c := range cluster.Items {
		cl = append(cl, Candidate{Name: c.Name, SourceModelUri: c.Spec.SourceModelUri, NodeGroups: c.Spec.NodeGroups})
	}
	SetLabels(isvc, Choose(isvc, ns, cl))
	return nil
}

func (l *Labeler) enabled(ctx context.Context) (bool, error) {
	if l.Config == nil {
		return config.Default().LocalModel.Enabled, nil
	}
	cfg, keyErrs, err := l.Config(ctx)
	if err != nil {
		return false, apierrors.NewInternalError(fmt.Errorf("reading %s: %w", config.ConfigMapName, err))
	}
	if ke := keyErrs.For(config.KeyLocalModel); ke != nil {
		return false, fmt.Errorf("%w; InferenceServices cannot be admitted until the ConfigMap is fixed", ke)
	}
	return cfg != nil && cfg.LocalModel.Enabled, nil
}

// Candidate is a cache an InferenceService could use.
type Candidate struct {
	Name string
	// Namespace is set for a LocalModelNamespaceCache.
	Namespace      string
	SourceModelUri string
	NodeGroups     []string
}

// Choice is the cache an InferenceService uses and the node group whose
// claim its pods mount.
type Choice struct {
	Cache     Candidate
	NodeGroup string
}

// Choose picks the cache for an InferenceService: namespace caches first
// (they shadow cluster caches), then cluster caches, each by name; the first
// whose sourceModelUri holds the predictor's storageUri and, when the service
// asks for a node group (serving.kserve.io/nodegroup), lists that group. The
// node group is the one asked for, else the cache's first. nil: no cache.
func Choose(isvc *v1beta1.InferenceService, namespaced, cluster []Candidate) *Choice {
	uri := isvc.Spec.Predictor.GetStorageUri()
	if uri == nil || *uri == "" {
		return nil
	}
	want, pinned := isvc.Annotations[v1beta1.NodeGroupAnnotation]
	for _, list := range [][]Candidate{byName(namespaced), byName(cluster)} {
		for _, c := range list {
			if len(c.NodeGroups) == 0 || !v1alpha1.MatchStorageURI(c.SourceModelUri, *uri) {
				continue
			}
			if !pinned {
				return &Choice{Cache: c, NodeGroup: c.NodeGroups[0]}
			}
			for _, g := range c.NodeGroups {
				if g == want {
					return &Choice{Cache: c, NodeGroup: g}
				}
			}
		}
	}
	return nil
}

func byName(list []Candidate) []Candidate {
	out := append([]Candidate(nil), list...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SetLabels writes the choice into the InferenceService's labels and
// annotations (the pod mutator reads them from its pods), or removes all four
// keys when choice is nil.
func SetLabels(isvc *v1beta1.InferenceService, choice *Choice) {
	if choice == nil {
		delete(isvc.Labels, v1beta1.LocalModelLabel)
		delete(isvc.Labels, v1beta1.LocalModelNamespaceLabel)
		delete(isvc.Annotations, v1beta1.LocalModelSourceURIInternalAnnotation)
		delete(isvc.Annotations, v1beta1.LocalModelPVCNameInternalAnnotation)
		return
	}
	if isvc.Labels == nil {
		isvc.Labels = map[string]string{}
	}
	if isvc.Annotations == nil {
		isvc.Annotations = map[string]string{}
	}
	isvc.Labels[v1beta1.LocalModelLabel] = choice.Cache.Name
	if choice.Cache.Namespace != "" {
		isvc.Labels[v1beta1.LocalModelNamespaceLabel] = choice.Cache.Namespace
	} else {
		delete(isvc.Labels, v1beta1.LocalModelNamespaceLabel)
	}
	isvc.Annotations[v1beta1.LocalModelSourceURIInternalAnnotation] = choice.Cache.SourceModelUri
	isvc.Annotations[v1beta1.LocalModelPVCNameInternalAnnotation] = choice.Cache.Name + "-" + choice.NodeGroup
}
