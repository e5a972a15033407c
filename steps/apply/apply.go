// Package apply makes child objects match their desired state with server-side
// apply under one field manager, so applying is idempotent and never fights
// other writers (an HPA over replicas, a mutating webhook over a pod template)
// over fields fsmserve does not set.
package apply

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// FieldManager is the one field manager fsmserve applies with.
const FieldManager = "fsmserve"

// Result is what an apply did.
type Result struct {
	// Changed is true when the object was created or its stored state changed.
	Changed bool
	// Created is true when the object did not exist before.
	Created bool
}

// Apply server-side applies desired (a typed object with name and namespace
// set) and decodes the live object back into desired. observedRV is the
// resourceVersion seen before ("" when the object was absent), which tells
// whether the apply changed anything.
func Apply(ctx context.Context, c client.Client, desired client.Object, observedRV string) (Result, error) {
	u, err := toApplyable(c.Scheme(), desired)
	if err != nil {
		return Result{}, err
	}
	if err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
		return Result{}, fmt.Errorf("apply %s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, desired); err != nil {
		return Result{}, fmt.Errorf("decode applied %s %s: %w", u.GetKind(), u.GetName(), err)
	}
	return Result{Changed: desired.GetResourceVersion() != observedRV, Created: observedRV == ""}, nil
}

// toApplyable converts a typed object into the unstructured apply request:
// kind set from the scheme, status and server-set fields dropped, so the
// request only claims what the builder meant to set.
func toApplyable(scheme *runtime.Scheme, obj client.Object) (*unstructured.Unstructured, error) {
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		return nil, err
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(gvk)
	delete(u.Object, "status")
	u.SetResourceVersion("")
	u.SetManagedFields(nil)
	dropNullTimestamps(u.Object)
	return u, nil
}

// dropNullTimestamps removes the creationTimestamp: null entries the typed
// conversion leaves in every embedded ObjectMeta (the pod template's too).
func dropNullTimestamps(m map[string]any) {
	for k, v := range m {
		switch val := v.(type) {
		case nil:
			if k == "creationTimestamp" {
				delete(m, k)
			}
		case map[string]any:
			dropNullTimestamps(val)
		case []any:
			for _, item := range val {
				if im, ok := item.(map[string]any); ok {
					dropNullTimestamps(im)
				}
			}
		}
	}
}

// DeleteIfControlled deletes obj (name and namespace set) when it exists and
// is controlled by the owner with ownerUID, so fsmserve never deletes what it
// did not create. It reports whether the object is gone.
func DeleteIfControlled(ctx context.Context, c client.Client, obj client.Object, ownerUID string) (bool, error) {
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	}
	ref := metaControllerUID(obj)
	if ref != ownerUID {
		return false, fmt.Errorf("%s/%s is not controlled by this object (controller uid %q); leaving it alone", obj.GetNamespace(), obj.GetName(), ref)
	}
	if obj.GetDeletionTimestamp() != nil {
		return false, nil
	}
	err := c.Delete(ctx, obj, client.PropagationPolicy("Background"), client.Preconditions{UID: ptr(obj.GetUID())})
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	return false, err
}

func metaControllerUID(obj client.Object) string {
	for _, ref := range obj.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			return string(ref.UID)
		}
	}
	return ""
}

func ptr[T any](v T) *T { return &v }
