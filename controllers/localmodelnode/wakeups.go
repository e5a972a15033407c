package localmodelnode

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/event"
)

// wakeups schedules reconciles on the agent's clock: the end of a download
// backoff, the periodic re-check of the folders. With a fake clock (scenarios)
// stepping the clock fires them, so no test waits in real time. At most one
// timer per request is pending; a later request for the same model keeps
// the earlier timer, whose reconcile schedules again.
type wakeups struct {
	clock   clock.WithDelayedExecution
	events  chan event.TypedGenericEvent[Request]
	stop    chan struct{}
	mu      sync.Mutex
	pending map[Request]time.Time
	stopped bool
}

func newWakeups(c clock.WithDelayedExecution) *wakeups {
	return &wakeups{clock: c, events: make(chan event.TypedGenericEvent[Request]),
		stop: make(chan struct{}), pending: map[Request]time.Time{}}
}

// at asks for a reconcile of r at t (at once when t has passed). The clock
// is called without w.mu held: a fake clock calls fire with its own lock
// held, and fire takes w.mu.
func (w *wakeups) at(r Request, t time.Time) {
	d := t.Sub(w.clock.Now())
	if d <= 0 {
		w.send(r)
		return
	}
	w.mu.Lock()
	p, ok := w.pending[r]
	skip := w.stopped || (ok && !p.After(t))
	if !skip {
		w.pending[r] = t
	}
	w.mu.Unlock()
	if !skip {
		w.clock.AfterFunc(d, func() { w.fire(r, t) })
	}
}

// fire runs on the clock's goroutine; a fake clock holds its lock meanwhile,
// so it never calls the clock and only hands the request on.
func (w *wakeups) fire(r Request, t time.Time) {
	w.mu.Lock()
	if w.pending[r].Equal(t) {
		delete(w.pending, r)
	}
	w.mu.Unlock()
	w.send(r)
}

// send enqueues r without blocking the caller.
func (w *wakeups) send(r Request) {
	go func() {
		select {
		case w.events <- event.TypedGenericEvent[Request]{Object: r}:
		case <-w.stop:
		}
	}()
}

// close stops delivering; pending timers fire into nothing.
func (w *wakeups) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stopped {
		w.stopped = true
		close(w.stop)
	}
}
