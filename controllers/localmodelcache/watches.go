package localmodelcache

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// mapper turns events on the objects a cache depends on into requests for the
// caches of one kind.
type mapper struct {
	c    client.Reader
	kind Kind
}

func (m *mapper) request(ref localmodel.CacheRef) reconcile.Request {
	return reconcile.Request{NamespacedName: client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}}
}

// mine reports whether a cache reference is of this mapper's kind.
func (m *mapper) mine(ref localmodel.CacheRef) bool {
	return (ref.Namespace != "") == m.kind.Namespaced
}

func (m *mapper) list(ctx context.Context) []view {
	list := m.kind.NewList()
	if err := m.c.List(ctx, list); err != nil {
		return nil
	}
	return views(list)
}

func (m *mapper) forAll(ctx context.Context, _ client.Object) []reconcile.Request {
	var out []reconcile.Request
	for _, v := range m.list(ctx) {
		out = append(out, m.request(v.ref()))
	}
	return out
}

// forWaitingOnJobNamespace enqueues the caches that wait for their job
// namespace to be created.
func (m *mapper) forWaitingOnJobNamespace(ctx context.Context, _ client.Object) []reconcile.Request {
	var out []reconcile.Request
	for _, v := range m.list(ctx) {
		if l := v.status.Lifecycle; l != nil && l.Reason == machine.ReasonJobNamespaceNotFound {
			out = append(out, m.request(v.ref()))
		}
	}
	return out
}

// forNode enqueues the caches the node belongs to (through any of their node
// groups) and those that list it in status (it may have left them).
func (m *mapper) forNode(ctx context.Context, obj client.Object) []reconcile.Request {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return nil
	}
	groups := map[string]*v1alpha1.LocalModelNodeGroup{}
	var out []reconcile.Request
	for _, v := range m.list(ctx) {
		if _, listed := v.status.NodeStatus[node.Name]; listed || m.anyGroupHas(ctx, v.spec.NodeGroups, node, groups) {
			out = append(out, m.request(v.ref()))
		}
	}
	return out
}

func (m *mapper) anyGroupHas(ctx context.Context, names []string, node *corev1.Node, seen map[string]*v1alpha1.LocalModelNodeGroup) bool {
	for _, name := range names {
		g, ok := seen[name]
		if !ok {
			g = &v1alpha1.LocalModelNodeGroup{}
			if err := m.c.Get(ctx, client.ObjectKey{Name: name}, g); err != nil {
				g = nil
			}
			seen[name] = g
		}
		if g != nil && localmodel.InNodeGroup(g, node) {
			return true
		}
	}
	return false
}

// forLocalModelNode enqueues the caches whose entries the LocalModelNode holds.
func (m *mapper) forLocalModelNode(_ context.Context, obj client.Object) []reconcile.Request {
	lmn, ok := obj.(*v1alpha1.LocalModelNode)
	if !ok {
		return nil
	}
	var out []reconcile.Request
	for _, e := range lmn.Spec.LocalModels {
		if ref := (localmodel.CacheRef{Name: e.ModelName, Namespace: e.Namespace}); m.mine(ref) {
			out = append(out, m.request(ref))
		}
	}
	return out
}

// forNodeGroup enqueues the caches that name the node group.
func (m *mapper) forNodeGroup(ctx context.Context, obj client.Object) []reconcile.Request {
	var out []reconcile.Request
	for _, v := range m.list(ctx) {
		for _, g := range v.spec.NodeGroups {
			if g == obj.GetName() {
				out = append(out, m.request(v.ref()))
				break
			}
		}
	}
	return out
}

// forInferenceService enqueues the cache an InferenceService's labels name.
func (m *mapper) forInferenceService(_ context.Context, obj client.Object) []reconcile.Request {
	l := obj.GetLabels()
	name, ok := l[v1beta1.LocalModelLabel]
	if !ok || name == "" {
		return nil
	}
	ref := localmodel.CacheRef{Name: name, Namespace: l[v1beta1.LocalModelNamespaceLabel]}
	if ref.Namespace != "" && ref.Namespace != obj.GetNamespace() || !m.mine(ref) {
		return nil
	}
	return []reconcile.Request{m.request(ref)}
}

// forVolume enqueues the cache a volume belongs to.
func (m *mapper) forVolume(_ context.Context, obj client.Object) []reconcile.Request {
	ref, ok := localmodel.CacheOfVolume(obj.GetLabels())
	if !ok || !m.mine(ref) {
		return nil
	}
	return []reconcile.Request{m.request(ref)}
}

// oldAndNew maps both the old and the new object of an update, so a cache
// that an object stops naming is told too.
func oldAndNew(fn handler.MapFunc) handler.Funcs {
	add := func(ctx context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request], objs ...client.Object) {
		for _, obj := range objs {
			for _, req := range fn(ctx, obj) {
				q.Add(req)
			}
		}
	}
	return handler.Funcs{
		CreateFunc: func(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			add(ctx, q, e.Object)
		},
		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			add(ctx, q, e.ObjectOld, e.ObjectNew)
		},
		DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			add(ctx, q, e.Object)
		},
	}
}

// nodeMembershipChanged passes node events that can change a cache: a node
// joining or leaving, its labels (membership) or its readiness changing.
// Heartbeats, which update node status constantly, do not pass.
func nodeMembershipChanged() predicate.Funcs {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		oldNode, ok1 := e.ObjectOld.(*corev1.Node)
		newNode, ok2 := e.ObjectNew.(*corev1.Node)
		if !ok1 || !ok2 {
			return false
		}
		return localmodel.NodeReady(oldNode) != localmodel.NodeReady(newNode) ||
			!equality.Semantic.DeepEqual(oldNode.Labels, newNode.Labels)
	}}
}

// localModelNodeChanged passes LocalModelNode changes of spec (another
// writer) or status (the agent reports).
func localModelNodeChanged() predicate.Funcs {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		oldNode, ok1 := e.ObjectOld.(*v1alpha1.LocalModelNode)
		newNode, ok2 := e.ObjectNew.(*v1alpha1.LocalModelNode)
		if !ok1 || !ok2 {
			return false
		}
		return !equality.Semantic.DeepEqual(oldNode.Spec, newNode.Spec) || !equality.Semantic.DeepEqual(oldNode.Status, newNode.Status)
	}}
}

// usageChanged passes InferenceService events that change who uses a cache:
// creation and deletion of a labelled service, and changes of the local-model
// labels or the node-group annotation.
func usageChanged() predicate.Funcs {
	keys := func(obj client.Object) [3]string {
		return [3]string{obj.GetLabels()[v1beta1.LocalModelLabel], obj.GetLabels()[v1beta1.LocalModelNamespaceLabel],
			obj.GetAnnotations()[v1beta1.NodeGroupAnnotation]}
	}
	labelled := func(obj client.Object) bool { return obj.GetLabels()[v1beta1.LocalModelLabel] != "" }
	return predicate.Funcs{
		CreateFunc:  func(e event.CreateEvent) bool { return labelled(e.Object) },
		DeleteFunc:  func(e event.DeleteEvent) bool { return labelled(e.Object) },
		UpdateFunc:  func(e event.UpdateEvent) bool { return keys(e.ObjectOld) != keys(e.ObjectNew) },
		GenericFunc: func(event.GenericEvent) bool { return false },
	}
}
