package lifecycle

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// childNameIndex indexes parents by the names of the children they expect.
const childNameIndex = "fsmserve.childNames"

// ForeignChildren wakes the parents that wait on a child they do not
// control. Owns() only maps a child to its controller, so an object waiting
// in a ChildConflict state would not hear that the user deleted or renamed
// the Deployment in its way, and would sit until its next recheck. The
// index keeps the lookup to the parents that expect exactly that name.
type ForeignChildren struct {
	// Parent is the parent kind's group, version and kind; children it
	// controls are left to Owns().
	Parent schema.GroupVersionKind
	// NewList returns an empty list of parents.
	NewList func() client.ObjectList
	// ChildNames lists the names of the children a parent expects.
	ChildNames func(client.Object) []string
}

// Index registers the child-name index for the parent type.
func (f ForeignChildren) Index(ctx context.Context, mgr ctrl.Manager, parent client.Object) error {
	return mgr.GetFieldIndexer().IndexField(ctx, parent, childNameIndex, f.ChildNames)
}

// Handler enqueues the parents expecting a child of the event's name in its
// namespace, unless the child is controlled by a parent of this kind.
func (f ForeignChildren) Handler(c client.Reader) handler.EventHandler {
	return handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, child client.Object) []reconcile.Request {
		if controllerOfKind(child, f.Parent.GroupKind()) != nil {
			return nil
		}
		return f.parentsOf(ctx, c, child)
	})
}

func (f ForeignChildren) parentsOf(ctx context.Context, c client.Reader, child client.Object) []reconcile.Request {
	list := f.NewList()
	err := c.List(ctx, list, client.InNamespace(child.GetNamespace()), client.MatchingFields{childNameIndex: child.GetName()})
	if err != nil {
		return nil
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil
	}
	out := make([]reconcile.Request, 0, len(items))
	for _, item := range items {
		if o, ok := item.(client.Object); ok {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(o)})
		}
	}
	return out
}
