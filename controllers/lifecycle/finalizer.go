package lifecycle

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// ensureFinalizer adds the kind's finalizer to a live object, so its Final
// state is recorded, traced and published before it goes.
func ensureFinalizer(ctx context.Context, c client.Client, obj client.Object, finalizer string) error {
	if finalizer == "" || obj.GetDeletionTimestamp() != nil || controllerutil.ContainsFinalizer(obj, finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(obj.DeepCopyObject().(client.Object), client.MergeFromWithOptimisticLock{})
	controllerutil.AddFinalizer(obj, finalizer)
	return c.Patch(ctx, obj, patch)
}

// removeFinalizer lets the object go, after the Final state was published.
func removeFinalizer(ctx context.Context, c client.Client, obj client.Object, finalizer string) error {
	if finalizer == "" || !controllerutil.ContainsFinalizer(obj, finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(obj.DeepCopyObject().(client.Object), client.MergeFromWithOptimisticLock{})
	controllerutil.RemoveFinalizer(obj, finalizer)
	return client.IgnoreNotFound(c.Patch(ctx, obj, patch))
}
