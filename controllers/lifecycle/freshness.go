package lifecycle

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// Freshness gives a controller read-your-writes over its informer cache.
//
// Status writes do not wake fsmserve's controllers (their watches pass only
// spec, label and annotation changes), so an event that arrives between a
// status write and the cache catching up (a deleted pod, an available
// Deployment) can run a reconcile on the object as it was before the write:
// the machine then starts from a state it has already left, sees nothing to
// do, and the wake-up is spent. Freshness remembers, per object, the
// resourceVersion each status write replaced; a reconcile that reads that
// version again knows its copy is stale and comes back shortly instead of
// acting on it. Resource versions are compared for equality only, as the API
// asks.
type Freshness struct {
	mu       sync.Mutex
	replaced map[types.NamespacedName]string
}

// Wrote records that the status write on key replaced resourceVersion old.
func (f *Freshness) Wrote(key types.NamespacedName, old string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.replaced == nil {
		f.replaced = map[types.NamespacedName]string{}
	}
	f.replaced[key] = old
}

// Stale reports whether resourceVersion rv of key is one a status write has
// already replaced. Any other version means the cache has caught up (or the
// object was written by someone else since), and the memory is dropped.
func (f *Freshness) Stale(key types.NamespacedName, rv string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	old, ok := f.replaced[key]
	if !ok {
		return false
	}
	if old == rv {
		return true
	}
	delete(f.replaced, key)
	return false
}

// Forget drops what is remembered about key (the object is gone).
func (f *Freshness) Forget(key types.NamespacedName) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.replaced, key)
}
