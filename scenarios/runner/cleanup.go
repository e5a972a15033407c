package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// objectID identifies an object across steps.
type objectID struct {
	gvk       schema.GroupVersionKind
	namespace string
	name      string
}

func (id objectID) String() string {
	if id.namespace == "" {
		return fmt.Sprintf("%s/%s", id.gvk.Kind, id.name)
	}
	return fmt.Sprintf("%s/%s in %s", id.gvk.Kind, id.name, id.namespace)
}

// changeLog records what a scenario must undo: objects it created, and the
// first-seen copy of objects outside its namespace that it changed.
type changeLog struct {
	created   []objectID
	createdBy map[objectID]bool
	snapshots []*unstructured.Unstructured
	saved     map[objectID]bool
}

// beforeWrite records the object a step is about to write (apply, patch or
// delete), reading it first; it returns whether the object exists.
func (r *run) beforeWrite(ctx context.Context, info kindInfo, key client.ObjectKey) (bool, error) {
	current := info.newObject(key.Name, key.Namespace)
	err := r.h.Client.Get(ctx, key, current)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	id := objectID{info.gvk, key.Namespace, key.Name}
	outside := !info.namespaced || key.Namespace != r.namespace
	if outside && !r.changes.createdBy[id] && !r.changes.saved[id] {
		if r.changes.saved == nil {
			r.changes.saved = map[objectID]bool{}
		}
		r.changes.saved[id] = true
		r.changes.snapshots = append(r.changes.snapshots, current)
	}
	return true, nil
}

// created records an object the scenario created, to delete at the end.
func (r *run) created(info kindInfo, key client.ObjectKey) {
	id := objectID{info.gvk, key.Namespace, key.Name}
	if r.changes.createdBy == nil {
		r.changes.createdBy = map[objectID]bool{}
	}
	if !r.changes.createdBy[id] {
		r.changes.createdBy[id] = true
		r.changes.created = append(r.changes.created, id)
	}
}

// cleanup deletes created objects (newest first; envtest has no namespace
// controller to do it), restores changed outside objects, then deletes the
// namespace. It keeps going past errors and reports them all.
func (r *run) cleanup(ctx context.Context, ns *corev1.Namespace) error {
	var errs []error
	owners := map[types.UID]bool{}
	var refused []objectID
	for i := len(r.changes.created) - 1; i >= 0; i-- {
		id := r.changes.created[i]
		if uid := r.uidOf(ctx, id); uid != "" {
			owners[uid] = true
		}
		err := r.deleteCreated(ctx, id)
		switch {
		case apierrors.IsForbidden(err):
			refused = append(refused, id)
		case err != nil:
			errs = append(errs, err)
		}
	}
	errs = append(errs, r.retryRefused(ctx, refused)...)
	if err := r.collectGarbage(ctx, owners); err != nil {
		errs = append(errs, err)
	}
	for _, snap := range r.changes.snapshots {
		if err := restore(ctx, r.h.Client, snap); err != nil {
			errs = append(errs, fmt.Errorf("restoring %s %s: %w", snap.GetKind(), client.ObjectKeyFromObject(snap), err))
		}
	}
	if err := r.h.Client.Delete(ctx, ns); err != nil && !apierrors.IsNotFound(err) {
		errs = append(errs, fmt.Errorf("deleting namespace %s: %w", ns.Name, err))
	}
	return errors.Join(errs...)
}

func (r *run) deleteCreated(ctx context.Context, id objectID) error {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(id.gvk)
	u.SetNamespace(id.namespace)
	u.SetName(id.name)
	err := r.h.Client.Delete(ctx, u, client.PropagationPolicy("Background"))
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting %s: %w", id, err)
	}
	return nil
}

// retryRefused deletes again what admission refused to delete while the
// objects using it were still going (a cache in use by an InferenceService
// being deleted), until it is accepted or the cleanup's time is up.
func (r *run) retryRefused(ctx context.Context, refused []objectID) []error {
	var errs []error
	for _, id := range refused {
		for {
			err := r.deleteCreated(ctx, id)
			if err == nil || !apierrors.IsForbidden(err) {
				if err != nil {
					errs = append(errs, err)
				}
				break
			}
			if serr := sleep(ctx, 250*time.Millisecond); serr != nil {
				errs = append(errs, err)
				break
			}
		}
	}
	return errs
}

// restore puts an object back as it was first seen: recreated when the
// scenario deleted it, replaced (spec, data, labels, annotations and status)
// otherwise.
func restore(ctx context.Context, c client.Client, snap *unstructured.Unstructured) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current := &unstructured.Unstructured{}
		current.SetGroupVersionKind(snap.GroupVersionKind())
		err := c.Get(ctx, client.ObjectKeyFromObject(snap), current)
		want := snap.DeepCopy()
		want.SetManagedFields(nil)
		if apierrors.IsNotFound(err) {
			want.SetResourceVersion("")
			want.SetUID("")
			want.SetCreationTimestamp(metav1.Time{})
			return c.Create(ctx, want)
		}
		if err != nil {
			return err
		}
		want.SetResourceVersion(current.GetResourceVersion())
		if err := c.Update(ctx, want); err != nil {
			return err
		}
		if _, hasStatus := snap.Object["status"]; !hasStatus {
			return nil
		}
		want.Object["status"] = snap.Object["status"]
		err = c.Status().Update(ctx, want)
		if apierrors.IsNotFound(err) || apierrors.IsMethodNotSupported(err) {
			return nil // the kind has no status subresource; Update restored it
		}
		return err
	})
}
