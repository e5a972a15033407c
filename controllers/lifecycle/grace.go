package lifecycle

import (
	"reflect"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// DefaultStatusGrace is how long a report on a new generation may wait for
// its outcome. A Deployment on a warm node is available in about a second;
// two seconds lets most creations and spec changes write their status once,
// with the outcome, instead of once per step on the way.
const DefaultStatusGrace = 2 * time.Second

// Grace holds back progress reports for a short while.
//
// While status.observedGeneration is older than the object's generation (or
// status is empty), every reader knows the status is not yet about the spec
// they wrote: kstatus calls that InProgress, and kubectl wait keeps waiting
// on a new object. Writing "Deploying" one second and "Ready" the next adds
// writes and says nothing a reader of the old generation's status does not
// already know. So a reconcile that ends in a Progressing state on a new
// generation keeps its status in memory for up to the grace and comes back;
// a reconcile that reaches a settled, blocked or failed state, fails a step,
// or runs past the grace writes at once. On the generation already reported,
// only detail waits: a report still in the state and reason status shows
// (a rollout's replica counts, model copies, a message's words) is held the
// same way, so a rollout's steps a second apart are one write. A new state
// or reason is written at once: a Ready object whose pods die says so at
// once, and so does a rollout whose pods cannot be scheduled.
//
// The held status is the truth the next reconcile starts from (its machine
// state, history, episode and condition times), as long as the stored status
// is still the one it was derived over; events and spans of the held
// reconcile are published when it ends, as they happened.
type Grace struct {
	mu   sync.Mutex
	held map[types.NamespacedName]heldStatus
}

type heldStatus struct {
	uid types.UID
	// since is when the first report since the last write was held, on the
	// real clock: the grace bounds a write schedule, not a status time.
	since time.Time
	// base is the stored status the held one was derived over; held is the
	// derived one, to start the next reconcile from.
	base, held any
}

// recall puts the status held for obj into obj, when the stored status is
// still the one it was derived over.
func (g *Grace) recall(obj client.Object, status StatusAccess) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h, ok := g.held[client.ObjectKeyFromObject(obj)]
	if !ok || h.uid != obj.GetUID() || !equality.Semantic.DeepEqual(h.base, status.Value) {
		return
	}
	reflect.ValueOf(status.Value).Elem().Set(reflect.ValueOf(deepCopyValue(h.held)).Elem())
}

// hold keeps status (derived over base) in memory and reports how long until
// it must be written, or false when the grace is over.
func (g *Grace) hold(obj client.Object, base, status StatusAccess, grace time.Duration, now time.Time) (time.Duration, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	key := client.ObjectKeyFromObject(obj)
	since := now
	if h, ok := g.held[key]; ok && h.uid == obj.GetUID() {
		since = h.since
	}
	left := grace - now.Sub(since)
	if left <= 0 {
		return 0, false
	}
	if g.held == nil {
		g.held = map[types.NamespacedName]heldStatus{}
	}
	g.held[key] = heldStatus{uid: obj.GetUID(), since: since, base: deepCopyValue(base.Value), held: deepCopyValue(status.Value)}
	return left, true
}

// Forget drops what is held for key: its status was written, or it is gone.
func (g *Grace) Forget(key types.NamespacedName) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.held, key)
}

// deepCopyValue copies a status struct through its generated DeepCopy.
func deepCopyValue(v any) any {
	out := reflect.ValueOf(v).MethodByName("DeepCopy").Call(nil)
	return out[0].Interface()
}
