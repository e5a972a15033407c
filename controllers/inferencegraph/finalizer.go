package inferencegraph

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// Finalizer is KServe's finalizer name for graphs: it lets the Deleting
// transition be recorded, traced and published before the object goes.
const Finalizer = "inferencegraph.finalizers"

func (r *Reconciler) ensureFinalizer(ctx context.Context, ig *v1alpha1.InferenceGraph) error {
	if ig.DeletionTimestamp != nil || controllerutil.ContainsFinalizer(ig, Finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(ig.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.AddFinalizer(ig, Finalizer)
	return r.Client.Patch(ctx, ig, patch)
}

func (r *Reconciler) removeFinalizer(ctx context.Context, ig *v1alpha1.InferenceGraph) error {
	if !controllerutil.ContainsFinalizer(ig, Finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(ig.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.RemoveFinalizer(ig, Finalizer)
	return client.IgnoreNotFound(r.Client.Patch(ctx, ig, patch))
}
