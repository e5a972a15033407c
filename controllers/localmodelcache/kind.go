package localmodelcache

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// Finalizers are KServe's: they let the model be removed from every node
// before the cache goes.
const (
	ClusterFinalizer   = "localmodel.kserve.io/finalizer"
	NamespaceFinalizer = "localmodelnamespacecache.kserve.io/finalizer"
)

// Kind is one of the two cache kinds the reconciler serves. Both share the
// machine and every step; they differ in scope, finalizer and names.
type Kind struct {
	Name       string
	Finalizer  string
	Namespaced bool
	New        func() client.Object
	NewList    func() client.ObjectList
}

// ClusterCaches are LocalModelCaches, usable from every namespace.
var ClusterCaches = Kind{
	Name: "LocalModelCache", Finalizer: ClusterFinalizer,
	New:     func() client.Object { return &v1alpha1.LocalModelCache{} },
	NewList: func() client.ObjectList { return &v1alpha1.LocalModelCacheList{} },
}

// NamespaceCaches are LocalModelNamespaceCaches, usable from their namespace.
var NamespaceCaches = Kind{
	Name: "LocalModelNamespaceCache", Finalizer: NamespaceFinalizer, Namespaced: true,
	New:     func() client.Object { return &v1alpha1.LocalModelNamespaceCache{} },
	NewList: func() client.ObjectList { return &v1alpha1.LocalModelNamespaceCacheList{} },
}

// view reads and writes either kind the same way: the two specs have the same
// fields and the two statuses the same type.
type view struct {
	obj    client.Object
	spec   v1alpha1.LocalModelCacheSpec
	status *v1alpha1.LocalModelCacheStatus
}

func viewOf(obj client.Object) view {
	switch c := obj.(type) {
	case *v1alpha1.LocalModelCache:
		return view{obj: c, spec: c.Spec, status: &c.Status}
	case *v1alpha1.LocalModelNamespaceCache:
		return view{obj: c, spec: v1alpha1.LocalModelCacheSpec(c.Spec), status: &c.Status}
	}
	// Unreachable: the Kinds only build the two types above.
	return view{obj: obj, status: &v1alpha1.LocalModelCacheStatus{}}
}

func (v view) ref() localmodel.CacheRef {
	return localmodel.CacheRef{Name: v.obj.GetName(), Namespace: v.obj.GetNamespace()}
}

func (v view) cache(k Kind) localmodel.Cache {
	return localmodel.Cache{Ref: v.ref(), UID: v.obj.GetUID(), Kind: k.Name, Spec: v.spec}
}

// views lists every cache of the kind.
func views(list client.ObjectList) []view {
	var out []view
	switch l := list.(type) {
	case *v1alpha1.LocalModelCacheList:
		for i := range l.Items {
			out = append(out, viewOf(&l.Items[i]))
		}
	case *v1alpha1.LocalModelNamespaceCacheList:
		for i := range l.Items {
			out = append(out, viewOf(&l.Items[i]))
		}
	}
	return out
}
