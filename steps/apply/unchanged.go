package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// FingerprintAnnotation holds a digest of the configuration fsmserve last
// applied to a child. Comparing the live object with the desired one alone
// cannot see a field fsmserve stopped setting (the live object still has
// it, and server-side apply would remove it); a new digest can.
const FingerprintAnnotation = "serving.fsmserve.io/applied"

// stamp builds the apply request obj makes and records the digest of that
// request (the annotation itself left out) in both, before the child is
// created or applied: a Deployment counts an annotation change as a new
// generation, so the digest must arrive with the spec it describes, never
// after it.
func stamp(scheme *runtime.Scheme, obj client.Object) (*unstructured.Unstructured, error) {
	u, err := toApplyable(scheme, obj)
	if err != nil {
		return nil, err
	}
	annotations := u.GetAnnotations()
	delete(annotations, FingerprintAnnotation)
	if len(annotations) == 0 {
		annotations = nil // absent, as on an object never stamped
	}
	u.SetAnnotations(annotations)
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	digest := hex.EncodeToString(sum[:12])
	for _, o := range []interface {
		GetAnnotations() map[string]string
		SetAnnotations(map[string]string)
	}{u, obj} {
		a := o.GetAnnotations()
		if a == nil {
			a = map[string]string{}
		}
		a[FingerprintAnnotation] = digest
		o.SetAnnotations(a)
	}
	return u, nil
}

// Unchanged reports whether applying request over observed would change
// nothing: observed was last applied from the same configuration (its
// fingerprint matches) and still holds every value the request sets (nobody
// edited fsmserve's fields since). Fields others set, and defaults the API
// server filled in, do not count. A reconcile that finds its children so
// writes nothing.
func Unchanged(observed client.Object, request *unstructured.Unstructured) (bool, error) {
	live, err := liveIfUnchanged(observed, request)
	return live != nil, err
}

// liveIfUnchanged is Unchanged returning the live object it converted (nil
// when the request would change something), so the caller decodes it
// without converting it again.
func liveIfUnchanged(observed client.Object, request *unstructured.Unstructured) (map[string]any, error) {
	if observed == nil || reflect.ValueOf(observed).IsNil() {
		return nil, nil
	}
	if observed.GetAnnotations()[FingerprintAnnotation] != request.GetAnnotations()[FingerprintAnnotation] {
		return nil, nil
	}
	live, err := runtime.DefaultUnstructuredConverter.ToUnstructured(observed)
	if err != nil {
		return nil, err
	}
	// Typed objects from the cache carry no kind; the request names it.
	live["apiVersion"], live["kind"] = request.GetAPIVersion(), request.GetKind()
	if !covers(live, request.Object) {
		return nil, nil
	}
	return live, nil
}

// covers reports whether live holds every value want sets. Maps are
// compared key by key (live may have more), lists element by element (same
// length and order), scalars by value. An empty map or list in want is
// covered by an absent one: the API server drops them.
func covers(live, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok {
			return live == nil && len(w) == 0
		}
		for k, wv := range w {
			lv, present := l[k]
			if !present {
				if isEmpty(wv) {
					continue
				}
				return false
			}
			if !covers(lv, wv) {
				return false
			}
		}
		return true
	case []any:
		l, ok := live.([]any)
		if !ok {
			return live == nil && len(w) == 0
		}
		if len(l) != len(w) {
			return false
		}
		for i := range w {
			if !covers(l[i], w[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(live, want)
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}
