package localmodelcache

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

func (r *Reconciler) ensureFinalizer(ctx context.Context, obj client.Object) error {
	if obj.GetDeletionTimestamp() != nil || controllerutil.ContainsFinalizer(obj, r.Kind.Finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(obj.DeepCopyObject().(client.Object), client.MergeFromWithOptimisticLock{})
	controllerutil.AddFinalizer(obj, r.Kind.Finalizer)
	return r.Client.Patch(ctx, obj, patch)
}

func (r *Reconciler) removeFinalizer(ctx context.Context, obj client.Object) error {
	if !controllerutil.ContainsFinalizer(obj, r.Kind.Finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(obj.DeepCopyObject().(client.Object), client.MergeFromWithOptimisticLock{})
	controllerutil.RemoveFinalizer(obj, r.Kind.Finalizer)
	return client.IgnoreNotFound(r.Client.Patch(ctx, obj, patch))
}
