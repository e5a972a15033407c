package runner

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// collectGarbage does for a scenario's objects what the garbage collector
// does on a real cluster and the scenario host (no kube-controller-manager)
// does not: it deletes the Jobs, in any namespace, owned by the objects the
// scenario created. Without it a download Job of a LocalModelNode outlives
// the scenario and a later scenario of the same node finds a Job with the
// name it expects that is not its own.
func (r *run) collectGarbage(ctx context.Context, owners map[types.UID]bool) error {
	if len(owners) == 0 {
		return nil
	}
	jobs := &batchv1.JobList{}
	if err := r.h.Client.List(ctx, jobs); err != nil {
		return fmt.Errorf("listing Jobs to collect: %w", err)
	}
	for i := range jobs.Items {
		j := &jobs.Items[i]
		if !ownedByAny(j.OwnerReferences, owners) {
			continue
		}
		err := r.h.Client.Delete(ctx, j, client.PropagationPolicy("Background"))
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting Job %s/%s owned by a scenario object: %w", j.Namespace, j.Name, err)
		}
	}
	return nil
}

func ownedByAny(refs []metav1.OwnerReference, owners map[types.UID]bool) bool {
	for _, ref := range refs {
		if owners[ref.UID] {
			return true
		}
	}
	return false
}

// uidOf reads the UID of a created object before it is deleted ("" when gone).
func (r *run) uidOf(ctx context.Context, id objectID) types.UID {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(id.gvk)
	if err := r.h.Client.Get(ctx, client.ObjectKey{Namespace: id.namespace, Name: id.name}, u); err != nil {
		return ""
	}
	return u.GetUID()
}
