package inferenceservice

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// Finalizer is KServe's finalizer name: it lets the Deleting transition be
// recorded, traced and published before the object goes.
const Finalizer = "inferenceservice.finalizers"

func (r *Reconciler) ensureFinalizer(ctx context.Context, isvc *v1beta1.InferenceService) error {
	if isvc.DeletionTimestamp != nil || controllerutil.ContainsFinalizer(isvc, Finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(isvc.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.AddFinalizer(isvc, Finalizer)
	return r.Client.Patch(ctx, isvc, patch)
}

func (r *Reconciler) removeFinalizer(ctx context.Context, isvc *v1beta1.InferenceService) error {
	if !controllerutil.ContainsFinalizer(isvc, Finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(isvc.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.RemoveFinalizer(isvc, Finalizer)
	return client.IgnoreNotFound(r.Client.Patch(ctx, isvc, patch))
}
