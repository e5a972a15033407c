package apply

import (
	"context"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/fsmserve/fsmserve/steps/outcome"
)

// ReasonChildNotOwned is the reason of every state that waits for a child
// with the expected name to be renamed or deleted by whoever made it.
const ReasonChildNotOwned = "ChildNotOwned"

// Applier makes one parent's children match what it wants, and never
// touches a child the parent does not control: a Deployment a person made
// under the predictor's name, or the child of another object whose name
// collides, is reported (NotOwnedError), never taken over or deleted.
type Applier struct {
	// Client reads from the cache and writes.
	Client client.Client
	// Live reads the API server directly, to tell a child the cache has not
	// caught up with from one that belongs to someone else.
	Live client.Reader
	// Owner is the parent, whose UID its children's controller reference carries.
	Owner client.Object
	// OwnerKind names the parent in messages ("InferenceService").
	OwnerKind string
}

// NotOwnedError says a child with the expected name exists and is not
// controlled by the parent.
type NotOwnedError struct {
	Kind, Name string
	// Controller describes who controls it ("InferenceGraph ns/x"), or "" for nobody.
	Controller string
	// Parent describes the object that wanted it ("InferenceService ns/y").
	Parent string
}

func (e *NotOwnedError) Error() string {
	who := "is controlled by no object (made by hand or by another tool)"
	if e.Controller != "" {
		who = "is controlled by " + e.Controller
	}
	return fmt.Sprintf("%s %s exists and is not controlled by %s: it %s; rename or delete it, and fsmserve creates its own", e.Kind, e.Name, e.Parent, who)
}

// Check reports, as a *NotOwnedError, an observed child (nil: absent) that
// the parent does not control.
func (a Applier) Check(observed client.Object) error {
	if isAbsent(observed) || ControllerUID(observed) == a.Owner.GetUID() {
		return nil
	}
	return a.notOwned(observed)
}

// Apply makes the child desired exist as built. observed is the child as
// the cache shows it (nil when absent). An absent child is created, so a
// child that exists without the cache showing it (it is not labelled as
// fsmserve's) is never silently adopted; a child the parent does not control
// is a *NotOwnedError and nothing is written. The applied object is decoded
// back into desired.
func (a Applier) Apply(ctx context.Context, desired, observed client.Object) (Result, error) {
	request, err := stamp(a.Client.Scheme(), desired)
	if err != nil {
		return Result{}, err
	}
	if isAbsent(observed) {
		return a.create(ctx, desired, request)
	}
	if err := a.Check(observed); err != nil {
		return Result{}, err
	}
	return serverSideApply(ctx, a.Client, desired, request, observed)
}

func (a Applier) create(ctx context.Context, desired client.Object, request *unstructured.Unstructured) (Result, error) {
	err := a.Client.Create(ctx, desired, client.FieldOwner(FieldManager))
	if err == nil {
		return Result{Changed: true, Created: true}, nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return Result{}, fmt.Errorf("create %s %s/%s: %w", kindOf(a.Client, desired), desired.GetNamespace(), desired.GetName(), err)
	}
	live, err := a.Client.Scheme().New(gvkOf(a.Client, desired))
	if err != nil {
		return Result{}, err
	}
	liveObj := live.(client.Object)
	if err := a.Live.Get(ctx, client.ObjectKeyFromObject(desired), liveObj); err != nil {
		return Result{}, err
	}
	if err := a.Check(liveObj); err != nil {
		return Result{}, err
	}
	// Ours, and the cache had not caught up: apply over it.
	return serverSideApply(ctx, a.Client, desired, request, liveObj)
}

// Delete deletes a child the parent controls and reports whether it is gone.
// A child controlled by someone else is not the parent's to delete: it is
// reported gone (of the parent's children), so deleting a parent whose
// child's name collides with another's never blocks its finalizer.
func (a Applier) Delete(ctx context.Context, obj client.Object) (bool, error) {
	if err := a.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	}
	if ControllerUID(obj) != a.Owner.GetUID() {
		return true, nil
	}
	if obj.GetDeletionTimestamp() != nil {
		return false, nil
	}
	uid := obj.GetUID()
	err := a.Client.Delete(ctx, obj, client.PropagationPolicy("Background"), client.Preconditions{UID: &uid})
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	return false, err
}

func (a Applier) notOwned(child client.Object) *NotOwnedError {
	e := &NotOwnedError{Kind: kindOf(a.Client, child), Name: child.GetName(),
		Parent: describe(a.OwnerKind, a.Owner.GetNamespace(), a.Owner.GetName())}
	for _, ref := range child.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			e.Controller = describe(ref.Kind, child.GetNamespace(), ref.Name)
		}
	}
	return e
}

func describe(kind, namespace, name string) string {
	if namespace == "" {
		return kind + " " + name
	}
	return kind + " " + namespace + "/" + name
}

// ControllerUID is the UID of the object's controller reference, "" when none.
func ControllerUID(obj client.Object) types.UID {
	for _, ref := range obj.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			return ref.UID
		}
	}
	return ""
}

func kindOf(c client.Client, obj client.Object) string { return gvkOf(c, obj).Kind }

func gvkOf(c client.Client, obj client.Object) schema.GroupVersionKind {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return schema.GroupVersionKind{}
	}
	return gvk
}

// isAbsent reports whether obj is nil or a typed nil pointer (an unobserved child).
func isAbsent(obj client.Object) bool {
	return obj == nil || reflect.ValueOf(obj).IsNil()
}

// Present drops the absent (nil, or typed nil) children from objs.
func Present(objs ...client.Object) []client.Object {
	var out []client.Object
	for _, o := range objs {
		if !isAbsent(o) {
			out = append(out, o)
		}
	}
	return out
}

// DeleteAll deletes every child in objs the parent controls (see Delete) and
// reports whether it wrote and what went wrong.
func (a Applier) DeleteAll(ctx context.Context, objs ...client.Object) outcome.Outcome {
	out := outcome.OK(false)
	for _, obj := range Present(objs...) {
		gone, err := a.Delete(ctx, obj)
		out = out.Then(outcome.Error(err))
		out.Changed = out.Changed || (err == nil && !gone)
	}
	return out
}

// GetOptional reads an object into obj, returning nil when it does not exist.
func GetOptional[T client.Object](ctx context.Context, c client.Reader, namespace, name string, obj T) (T, error) {
	var zero T
	if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return zero, nil
		}
		return zero, err
	}
	return obj, nil
}
