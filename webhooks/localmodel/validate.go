package localmodel

import (
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// The two cache kinds, as named in messages.
const (
	KindCache          = "LocalModelCache"
	KindNamespaceCache = "LocalModelNamespaceCache"
)

// Other is another cache in the same scope: every other LocalModelCache for a
// LocalModelCache, the other LocalModelNamespaceCaches of its namespace for a
// LocalModelNamespaceCache.
type Other struct {
	Name           string
	SourceModelUri string
}

// Rules choose the checks that differ between the kinds.
type Rules struct {
	Kind string
	// RequireNodeGroups rejects node groups that do not exist (KServe checks
	// this for namespace caches; a cluster cache may name a group created
	// later and waits for it).
	RequireNodeGroups bool
}

var specPath = field.NewPath("spec")

// ValidateSpec checks a cache's spec: no other cache in scope has the same
// sourceModelUri, every node group is listed once (and exists, when the rules
// require it), and the model fits each existing node group's storageLimit.
// groups holds the node groups that exist, by name.
func ValidateSpec(r Rules, name string, spec *v1alpha1.LocalModelCacheSpec, others []Other, groups map[string]*v1alpha1.LocalModelNodeGroup) field.ErrorList {
	errs := validateUniqueURI(r, name, spec.SourceModelUri, others)
	errs = append(errs, validateNodeGroups(r, spec.NodeGroups, groups)...)
	return append(errs, validateFits(spec, groups)...)
}

func validateUniqueURI(r Rules, name, uri string, others []Other) field.ErrorList {
	for _, o := range others {
		if o.Name != name && o.SourceModelUri == uri {
			scope := ""
			if r.Kind == KindNamespaceCache {
				scope = " in this namespace"
			}
			return field.ErrorList{field.Invalid(specPath.Child("sourceModelUri"), uri, fmt.Sprintf(
				"%s %s%s already caches this URI, and an InferenceService uses only one cache per model; add the node groups you need to %s instead of creating another cache",
				r.Kind, o.Name, scope, o.Name))}
		}
	}
	return nil
}

func validateNodeGroups(r Rules, names []string, groups map[string]*v1alpha1.LocalModelNodeGroup) field.ErrorList {
	var errs field.ErrorList
	first := map[string]int{}
	for i, name := range names {
		path := specPath.Child("nodeGroups").Index(i)
		if j, seen := first[name]; seen {
			errs = append(errs, field.Invalid(path, name, fmt.Sprintf("listed twice (also spec.nodeGroups[%d]); list each node group once", j)))
			continue
		}
		first[name] = i
		if r.RequireNodeGroups && groups[name] == nil {
			errs = append(errs, field.Invalid(path, name, fmt.Sprintf(
				"LocalModelNodeGroup %s not found; create it before the cache, or name an existing node group", name)))
		}
	}
	return errs
}

// validateFits is fsmserve's capacity check at admission: a model larger
// than a node group's storage limit could never be downloaded there.
func validateFits(spec *v1alpha1.LocalModelCacheSpec, groups map[string]*v1alpha1.LocalModelNodeGroup) field.ErrorList {
	var errs field.ErrorList
	checked := map[string]bool{}
	for _, name := range spec.NodeGroups {
		g := groups[name]
		if checked[name] {
			continue
		}
		checked[name] = true
		if g == nil || g.Spec.StorageLimit.IsZero() || spec.ModelSize.Cmp(g.Spec.StorageLimit) <= 0 {
			continue
		}
		errs = append(errs, field.Invalid(specPath.Child("modelSize"), spec.ModelSize.String(), fmt.Sprintf(
			"larger than the storageLimit %s of node group %s, so the model cannot fit on its nodes; lower modelSize if it overstates the model, raise the node group's spec.storageLimit, or remove %s from spec.nodeGroups",
			g.Spec.StorageLimit.String(), name, name)))
	}
	return errs
}

// InUse is the rejection of deleting a cache that InferenceServices (listed
// as namespace/name) still use; nil when none does.
func InUse(kind, name string, users []string) error {
	if len(users) == 0 {
		return nil
	}
	return apierrors.NewForbidden(groupResource(kind), name, fmt.Errorf(
		"%s %s is still used by InferenceService %s; delete them, or annotate them with %s: \"true\" so they stop using the cache, then delete it",
		kind, name, strings.Join(users, ", "), v1beta1.DisableLocalModelAnnotation))
}

func groupResource(kind string) schema.GroupResource {
	return v1alpha1.GroupVersion.WithResource(strings.ToLower(kind) + "s").GroupResource()
}

// invalid turns field errors into the Invalid (422) status kubectl shows as
// `LocalModelCache.serving.kserve.io "x" is invalid: spec.modelSize: ...`.
func invalid(kind, name string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(v1alpha1.GroupVersion.WithKind(kind).GroupKind(), name, errs)
}
