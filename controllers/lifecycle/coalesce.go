package lifecycle

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// UpdateDelay is how long a reconcile woken by a child's update waits. A
// Deployment controller writes a rollout's status in a burst (replica
// counts, Progressing, Available, then NewReplicaSetAvailable, within a
// second), and kubelets update pods alike; reading the burst once instead
// of once per write saves a reconcile and, mostly, a status write each.
// Deletions are not delayed.
const UpdateDelay = 500 * time.Millisecond

type queue = workqueue.TypedRateLimitingInterface[reconcile.Request]

// Coalesced enqueues what parentsOf returns for a child the parent creates:
// at once when the child is deleted, UpdateDelay later when it is updated
// (the queue keeps one entry per object, so a burst of updates is one
// reconcile), and not at all when it is created. The parent made it and
// knows; a reconcile woken by its own creation would run before the cache
// shows the children created after it, and create them again (a refused
// POST and a GET each). When the manager starts, the parents' own initial
// list wakes every parent, so no creation seen then is lost either.
func Coalesced(parentsOf func(context.Context, client.Object) []reconcile.Request) handler.EventHandler {
	now := func(ctx context.Context, obj client.Object, q queue) {
		for _, r := range parentsOf(ctx, obj) {
			q.Add(r)
		}
	}
	return handler.Funcs{
		CreateFunc: func(context.Context, event.CreateEvent, queue) {},
		DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q queue) { now(ctx, e.Object, q) },
		GenericFunc: func(ctx context.Context, e event.GenericEvent, q queue) {
			now(ctx, e.Object, q)
		},
		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q queue) {
			for _, r := range parentsOf(ctx, e.ObjectNew) {
				q.AddAfter(r, UpdateDelay)
			}
		},
	}
}

// ControllerOf maps a child to its controller of the given kind, as Owns()
// does.
func ControllerOf(parent schema.GroupKind) func(context.Context, client.Object) []reconcile.Request {
	return func(_ context.Context, child client.Object) []reconcile.Request {
		ref := controllerOfKind(child, parent)
		if ref == nil {
			return nil
		}
		return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: child.GetNamespace(), Name: ref.Name}}}
	}
}

// controllerOfKind is child's controller reference when the controller is
// of the given kind, else nil.
func controllerOfKind(child client.Object, parent schema.GroupKind) *metav1.OwnerReference {
	ref := metav1.GetControllerOf(child)
	if ref == nil || ref.Kind != parent.Kind {
		return nil
	}
	if gv, err := schema.ParseGroupVersion(ref.APIVersion); err != nil || gv.Group != parent.Group {
		return nil
	}
	return ref
}

// Delayed enqueues what parentsOf returns UpdateDelay after any event of a
// child, creations and deletions too: for children that come and go in
// bursts of their own, as a rollout's pods do (a new one created, an old
// one deleted, each updated several times on the way).
func Delayed(parentsOf func(context.Context, client.Object) []reconcile.Request) handler.EventHandler {
	later := func(ctx context.Context, obj client.Object, q queue) {
		for _, r := range parentsOf(ctx, obj) {
			q.AddAfter(r, UpdateDelay)
		}
	}
	return handler.Funcs{
		CreateFunc:  func(ctx context.Context, e event.CreateEvent, q queue) { later(ctx, e.Object, q) },
		DeleteFunc:  func(ctx context.Context, e event.DeleteEvent, q queue) { later(ctx, e.Object, q) },
		GenericFunc: func(ctx context.Context, e event.GenericEvent, q queue) { later(ctx, e.Object, q) },
		UpdateFunc:  func(ctx context.Context, e event.UpdateEvent, q queue) { later(ctx, e.ObjectNew, q) },
	}
}
