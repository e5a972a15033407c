package runner

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// apply server-side applies each document (force, as FieldOwner), placing
// namespaced objects without a namespace in the step's namespace.
func (r *run) apply(ctx context.Context, step Step) error {
	for i, doc := range step.Apply.Docs {
		if err := r.applyOne(ctx, step, doc); err != nil {
			return fmt.Errorf("object %d: %w", i+1, err)
		}
	}
	return nil
}

func (r *run) applyOne(ctx context.Context, step Step, doc []byte) error {
	u, err := toUnstructured(doc)
	if err != nil {
		return err
	}
	gvk := u.GroupVersionKind()
	mapping, err := r.h.Client.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return fmt.Errorf("%s %s: kind not served by the API server (is its CRD installed?): %w", u.GetKind(), u.GetName(), err)
	}
	info := kindInfo{gvk: gvk, namespaced: mapping.Scope.Name() == meta.RESTScopeNameNamespace}
	if !info.namespaced {
		u.SetNamespace("")
	} else if u.GetNamespace() == "" {
		u.SetNamespace(r.namespaceFor(step, ""))
	}
	key := client.ObjectKeyFromObject(u)
	existed, err := r.beforeWrite(ctx, info, key)
	if err != nil {
		return fmt.Errorf("%s %s: %w", u.GetKind(), key, err)
	}
	err = r.h.Client.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldOwner), client.ForceOwnership)
	if err != nil {
		return fmt.Errorf("%s %s: %w", u.GetKind(), key, err)
	}
	if !existed {
		r.created(info, key)
	}
	return nil
}

// patch applies a JSON merge patch to the object or its status.
func (r *run) patch(ctx context.Context, step Step) error {
	p := step.Patch
	ref, info, key, err := r.target(p.Object, r.namespaceFor(step, p.Namespace))
	if err != nil {
		return err
	}
	existed, err := r.beforeWrite(ctx, info, key)
	if err != nil {
		return fmt.Errorf("%s: %w", ref, err)
	}
	if !existed {
		return fmt.Errorf("%s not found in %s", ref, namespaceText(info, key))
	}
	u := info.newObject(key.Name, key.Namespace)
	patch := client.RawPatch(types.MergePatchType, p.Merge)
	if p.Subresource == "status" {
		err = r.h.Client.Status().Patch(ctx, u, patch)
	} else {
		err = r.h.Client.Patch(ctx, u, patch)
	}
	if err != nil {
		return fmt.Errorf("patching %s: %w", ref, err)
	}
	return nil
}

// delete deletes the object (background propagation) without waiting for it
// to go; expect children.absent waits for that.
func (r *run) delete(ctx context.Context, step Step) error {
	ref, info, key, err := r.target(step.Delete, r.namespaceFor(step, ""))
	if err != nil {
		return err
	}
	existed, err := r.beforeWrite(ctx, info, key)
	if err != nil {
		return fmt.Errorf("%s: %w", ref, err)
	}
	if !existed {
		return fmt.Errorf("%s not found in %s", ref, namespaceText(info, key))
	}
	u := info.newObject(key.Name, key.Namespace)
	if err := r.h.Client.Delete(ctx, u, client.PropagationPolicy("Background")); err != nil {
		return fmt.Errorf("deleting %s: %w", ref, err)
	}
	return nil
}

// target parses and resolves a reference written in a step.
func (r *run) target(text, namespace string) (objectRef, kindInfo, client.ObjectKey, error) {
	ref, err := parseRef(text)
	if err != nil {
		return ref, kindInfo{}, client.ObjectKey{}, err
	}
	info, err := r.h.resolve(ref)
	if err != nil {
		return ref, kindInfo{}, client.ObjectKey{}, err
	}
	return ref, info, info.key(ref.Name, namespace), nil
}

func namespaceText(info kindInfo, key client.ObjectKey) string {
	if !info.namespaced {
		return "the cluster"
	}
	return "namespace " + key.Namespace
}
