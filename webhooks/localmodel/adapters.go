package localmodel

import (
	"context"
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelcaches;localmodelnamespacecaches;localmodelnodegroups;inferenceservices,verbs=get;list;watch

// Register serves both validators at the given paths. c should read the API
// server directly (a manager's APIReader), not an informer cache: a cache
// created a moment after another with the same URI, or deleted a moment
// after an InferenceService started using it, must still be refused, and
// these requests are rare enough that live reads cost nothing.
func Register(srv webhook.Server, s *runtime.Scheme, c client.Reader, cachePath, namespaceCachePath string) {
	srv.Register(cachePath, admission.WithValidator[*v1alpha1.LocalModelCache](s, &CacheValidator{Client: c}))
	srv.Register(namespaceCachePath, admission.WithValidator[*v1alpha1.LocalModelNamespaceCache](s, &NamespaceCacheValidator{Client: c}))
}

// CacheValidator validates LocalModelCaches.
type CacheValidator struct {
	// Client lists the other caches, the node groups and the
	// InferenceServices that use a cache.
	Client client.Reader
}

var _ admission.Validator[*v1alpha1.LocalModelCache] = (*CacheValidator)(nil)

var clusterRules = Rules{Kind: KindCache}

// ValidateCreate implements admission.Validator.
func (v *CacheValidator) ValidateCreate(ctx context.Context, c *v1alpha1.LocalModelCache) (admission.Warnings, error) {
	return nil, v.validate(ctx, c)
}

// ValidateUpdate allows updates of caches being deleted and updates that
// leave the spec unchanged (labels, finalizers), whatever the rules say now.
func (v *CacheValidator) ValidateUpdate(ctx context.Context, old, c *v1alpha1.LocalModelCache) (admission.Warnings, error) {
	if c.DeletionTimestamp != nil || equality.Semantic.DeepEqual(old.Spec, c.Spec) {
		return nil, nil
	}
	return nil, v.validate(ctx, c)
}

// ValidateDelete rejects deleting a cache an InferenceService still uses,
// naming them.
func (v *CacheValidator) ValidateDelete(ctx context.Context, c *v1alpha1.LocalModelCache) (admission.Warnings, error) {
	users, err := listUsers(ctx, v.Client, c.Name, "")
	if err != nil {
		return nil, err
	}
	return nil, InUse(KindCache, c.Name, users)
}

func (v *CacheValidator) validate(ctx context.Context, c *v1alpha1.LocalModelCache) error {
	list := &v1alpha1.LocalModelCacheList{}
	if err := v.Client.List(ctx, list); err != nil {
		return internal("listing LocalModelCaches", err)
	}
	others := make([]Other, 0, len(list.Items))
	for _, o := range list.Items {
		others = append(others, Other{Name: o.Name, SourceModelUri: o.Spec.SourceModelUri})
	}
	groups, err := nodeGroups(ctx, v.Client, c.Spec.NodeGroups)
	if err != nil {
		return err
	}
	return invalid(KindCache, c.Name, ValidateSpec(clusterRules, c.Name, &c.Spec, others, groups))
}

// NamespaceCacheValidator validates LocalModelNamespaceCaches.
type NamespaceCacheValidator struct {
	Client client.Reader
}

var _ admission.Validator[*v1alpha1.LocalModelNamespaceCache] = (*NamespaceCacheValidator)(nil)

var namespaceRules = Rules{Kind: KindNamespaceCache, RequireNodeGroups: true}

// ValidateCreate implements admission.Validator.
func (v *NamespaceCacheValidator) ValidateCreate(ctx context.Context, c *v1alpha1.LocalModelNamespaceCache) (admission.Warnings, error) {
	return nil, v.validate(ctx, c)
}

// ValidateUpdate allows updates of caches being deleted and updates that
// leave the spec unchanged.
func (v *NamespaceCacheValidator) ValidateUpdate(ctx context.Context, old, c *v1alpha1.LocalModelNamespaceCache) (admission.Warnings, error) {
	if c.DeletionTimestamp != nil || equality.Semantic.DeepEqual(old.Spec, c.Spec) {
		return nil, nil
	}
	return nil, v.validate(ctx, c)
}

// ValidateDelete rejects deleting a cache an InferenceService of its
// namespace still uses, naming them.
func (v *NamespaceCacheValidator) ValidateDelete(ctx context.Context, c *v1alpha1.LocalModelNamespaceCache) (admission.Warnings, error) {
	users, err := listUsers(ctx, v.Client, c.Name, c.Namespace)
	if err != nil {
		return nil, err
	}
	return nil, InUse(KindNamespaceCache, c.Name, users)
}

func (v *NamespaceCacheValidator) validate(ctx context.Context, c *v1alpha1.LocalModelNamespaceCache) error {
	list := &v1alpha1.LocalModelNamespaceCacheList{}
	if err := v.Client.List(ctx, list, client.InNamespace(c.Namespace)); err != nil {
		return internal("listing LocalModelNamespaceCaches", err)
	}
	others := make([]Other, 0, len(list.Items))
	for _, o := range list.Items {
		others = append(others, Other{Name: o.Name, SourceModelUri: o.Spec.SourceModelUri})
	}
	groups, err := nodeGroups(ctx, v.Client, c.Spec.NodeGroups)
	if err != nil {
		return err
	}
	spec := v1alpha1.LocalModelCacheSpec(c.Spec)
	return invalid(KindNamespaceCache, c.Name, ValidateSpec(namespaceRules, c.Name, &spec, others, groups))
}

// nodeGroups reads the named node groups that exist.
func nodeGroups(ctx context.Context, c client.Reader, names []string) (map[string]*v1alpha1.LocalModelNodeGroup, error) {
	out := map[string]*v1alpha1.LocalModelNodeGroup{}
	for _, name := range names {
		g := &v1alpha1.LocalModelNodeGroup{}
		err := c.Get(ctx, client.ObjectKey{Name: name}, g)
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return nil, internal("reading LocalModelNodeGroup "+name, err)
		default:
			out[name] = g
		}
	}
	return out, nil
}

// listUsers lists, as namespace/name, the InferenceServices labelled for a
// cache: for a cluster cache (namespace "") label
// internal.serving.kserve.io/localmodel and no namespace label; for a
// namespace cache both labels, in its namespace.
func listUsers(ctx context.Context, c client.Reader, name, namespace string) ([]string, error) {
	list := &v1beta1.InferenceServiceList{}
	opts := []client.ListOption{client.MatchingLabels{v1beta1.LocalModelLabel: name}}
	if namespace != "" {
		opts = []client.ListOption{client.InNamespace(namespace),
			client.MatchingLabels{v1beta1.LocalModelLabel: name, v1beta1.LocalModelNamespaceLabel: namespace}}
	}
	if err := c.List(ctx, list, opts...); err != nil {
		return nil, internal("listing the InferenceServices that use the cache", err)
	}
	var out []string
	for _, isvc := range list.Items {
		if namespace == "" && isvc.Labels[v1beta1.LocalModelNamespaceLabel] != "" {
			continue
		}
		out = append(out, isvc.Namespace+"/"+isvc.Name)
	}
	sort.Strings(out)
	return out, nil
}

func internal(what string, err error) error {
	return apierrors.NewInternalError(fmt.Errorf("%s: %w", what, err))
}
