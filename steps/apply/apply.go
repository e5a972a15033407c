// Package apply makes child objects match their desired state with server-side
// apply under one field manager, so applying is idempotent and never fights
// other writers (an HPA over replicas, a mutating webhook over a pod template)
// over fields fsmserve does not set.
package apply

import (
	"context"
	"fmt"

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

// serverSideApply server-side applies request (desired's stamped apply
// request) over observed (the child as last seen, which this parent
// controls) and decodes the live object back into desired. When observed
// already carries exactly what desired says (Unchanged), nothing is sent.
func serverSideApply(ctx context.Context, c client.Client, desired client.Object, u *unstructured.Unstructured, observed client.Object) (Result, error) {
	live, err := liveIfUnchanged(observed, u)
	if err != nil {
		return Result{}, err
	}
	if live != nil {
		return Result{}, runtime.DefaultUnstructuredConverter.FromUnstructured(live, desired)
	}
	if err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
		return Result{}, fmt.Errorf("apply %s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, desired); err != nil {
		return Result{}, fmt.Errorf("decode applied %s %s: %w", u.GetKind(), u.GetName(), err)
	}
	return Result{Changed: desired.GetResourceVersion() != observed.GetResourceVersion()}, nil
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
