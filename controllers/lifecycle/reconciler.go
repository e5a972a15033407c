package lifecycle

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/engine"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// staleRetry is how soon a reconcile that read a copy older than its own
// last status write comes back; the cache is normally milliseconds behind.
const staleRetry = 20 * time.Millisecond

// Reconciler is the one reconcile skeleton, generic over the kind.
type Reconciler[P client.Object, S ~string, T ~string, O any, W any] struct {
	Client    client.Client
	Clock     clock.PassiveClock
	Publisher *Publisher
	Kind      Kind[P, S, T, O, W]
	// StatusGrace is how long a progress report may
	// wait for its outcome (see Grace); zero writes every report at once.
	StatusGrace time.Duration
	// grace holds those reports.
	grace Grace
	// fresh keeps reconciles off cached copies older than our status writes.
	fresh Freshness
}

func (r *Reconciler[P, S, T, O, W]) now() time.Time { return r.Clock.Now() }

// Reconcile runs one object through its lifecycle: get, read-your-writes
// guard, finalizer, observe, classify once, fire, run the state's step,
// derive status, persist once, publish, and remove the finalizer once the
// Final state's step has succeeded.
func (r *Reconciler[P, S, T, O, W]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.Kind.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		r.fresh.Forget(req.NamespacedName)
		r.grace.Forget(req.NamespacedName)
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.fresh.Stale(req.NamespacedName, obj.GetResourceVersion()) {
		return ctrl.Result{RequeueAfter: staleRetry}, nil
	}
	if err := ensureFinalizer(ctx, r.Client, obj, r.Kind.Finalizer); err != nil {
		return ctrl.Result{}, err
	}
	before := obj.DeepCopyObject().(P)
	r.grace.recall(obj, r.Kind.Status(obj))
	run, err := r.observe(ctx, obj)
	if err != nil {
		return ctrl.Result{}, err
	}
	m, ep, runErr := r.decide(ctx, run)
	state := m.State()
	r.deriveStatus(ctx, run, m)
	ep.Close(r.lifecycle(obj), r.Kind.Definition.KindOf(state).EndsEpisode())
	total := run.total()
	changed := !equality.Semantic.DeepEqual(r.Kind.Status(before).Value, r.Kind.Status(obj).Value)
	if wait, held := r.holdStatus(run, before, state, changed, runErr, total); held {
		r.publish(ctx, run, m.Journal(), ep, state, total.Changed)
		return ctrl.Result{RequeueAfter: soonest(wait, total.RequeueAfter)}, nil
	}
	if err := r.persist(ctx, run, changed); err != nil {
		return persistFailed(ctx, run.Deleting, err)
	}
	r.grace.Forget(req.NamespacedName)
	r.publish(ctx, run, m.Journal(), ep, state, total.Changed)
	if r.finished(run, state) {
		return ctrl.Result{}, removeFinalizer(ctx, r.Client, obj, r.Kind.Finalizer)
	}
	return Result(ctx, runErr, total)
}

// holdStatus keeps the reconcile's status in memory instead of writing it
// when it is a progress report that can wait (see Grace): on a new
// generation, or one that only updates the details (counts, copies, words)
// of the state and reason already reported. It says how soon to come back.
// A status that did not change is never held: holding would start the
// grace's clock for a report that does not exist, and the next real one
// would find it run out.
func (r *Reconciler[P, S, T, O, W]) holdStatus(run *Run[P, W], before P, state S, changed bool, runErr error, total outcome.Outcome) (time.Duration, bool) {
	if !changed || r.StatusGrace <= 0 || run.Deleting || runErr != nil || total.Err != nil ||
		r.Kind.Definition.KindOf(state) != engine.Progressing {
		return 0, false
	}
	stored := r.Kind.Status(before)
	newGeneration := *stored.ObservedGeneration != run.Object.GetGeneration()
	if !newGeneration && !sameStep(*stored.Lifecycle, r.lifecycle(run.Object)) {
		return 0, false
	}
	return r.grace.hold(run.Object, stored, r.Kind.Status(run.Object), r.StatusGrace, time.Now())
}

// sameStep reports whether the derived lifecycle is still in the state,
// for the reason, that status already says: what changed is detail.
func sameStep(stored, derived *common.Lifecycle) bool {
	return stored != nil && stored.State == derived.State && stored.Reason == derived.Reason
}

// soonest is the earlier of two requeue delays, zero meaning none.
func soonest(a, b time.Duration) time.Duration {
	if b > 0 && b < a {
		return b
	}
	return a
}

// conflictRetry is how soon a reconcile whose status write lost a race
// runs again, on the newer copy.
const conflictRetry = 100 * time.Millisecond

// persistFailed turns a refused status write into the next step: a write
// that lost a race with another writer is redone on a fresh read (the
// expected outcome of optimistic locking, not an error to log), and an
// object being deleted that is already gone needs nothing more. Anything
// else is an error and backs off.
func persistFailed(ctx context.Context, deleting bool, err error) (ctrl.Result, error) {
	switch {
	case apierrors.IsConflict(err):
		log.FromContext(ctx).V(1).Info("status write lost a race; redoing it on a fresh read", "error", err.Error())
		return ctrl.Result{RequeueAfter: conflictRetry}, nil
	case deleting && apierrors.IsNotFound(err):
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, err
}

// observe starts the run: the object's facts and the kind's world.
func (r *Reconciler[P, S, T, O, W]) observe(ctx context.Context, obj P) (*Run[P, W], error) {
	l := r.lifecycle(obj)
	run := &Run[P, W]{
		Object: obj, Client: r.Client, now: r.now,
		Deleting: obj.GetDeletionTimestamp() != nil,
		Spans: tracing.NewRecorder("Reconcile "+r.Kind.Name, append(ObjectAttributes(obj),
			attribute.String("sm.machine", l.Machine), attribute.Int64("k8s.object.generation", obj.GetGeneration()))...),
	}
	if last := *r.Kind.Status(obj).ObservedGeneration; last != 0 && last != obj.GetGeneration() {
		run.SpecChanged = true
	}
	w, err := r.Kind.Observe(ctx, run)
	run.World = w
	return run, err
}

// decide builds the machine from the stored state, classifies once, opens
// the episode (so steps can hand its trace context to children) and runs
// the machine with the states' steps.
func (r *Reconciler[P, S, T, O, W]) decide(ctx context.Context, run *Run[P, W]) (*engine.Machine[S, T, O], Episode, error) {
	l := r.lifecycle(run.Object)
	m := r.Kind.Definition.New(l.State, r.now)
	moving := m.Begin(r.Kind.Observation(run))
	ep := OpenEpisode(l, run.Object.GetGeneration(), moving, r.now())
	run.TraceParent = ep.TraceParent()
	_, err := m.Run(ctx, r.Kind.Observation(run), r.activity(run))
	return m, ep, err
}

// activity runs a state's step and re-derives the observation from the
// world and the outcomes, so the next classification sees what it did.
func (r *Reconciler[P, S, T, O, W]) activity(run *Run[P, W]) engine.Activity[S, O] {
	return func(ctx context.Context, s S, _ O) O {
		rec, _ := r.Kind.Definition.Record(s)
		if rec.TakesUpGeneration {
			run.SpecChanged = false
		}
		if rec.Activity != "" {
			run.runStep(ctx, rec.Activity, r.Kind.Steps[rec.Activity])
		}
		return r.Kind.Observation(run)
	}
}

func (r *Reconciler[P, S, T, O, W]) deriveStatus(ctx context.Context, run *Run[P, W], m *engine.Machine[S, T, O]) {
	l := r.lifecycle(run.Object)
	m.WriteLifecycle(ctx, l)
	rec, _ := r.Kind.Definition.Record(m.State())
	r.Kind.DeriveStatus(run, End[S, O]{State: m.State(), Record: rec, Lifecycle: l, Observation: m.Observation(), Now: metav1.NewTime(r.now())})
}

// persist writes status once, with optimistic locking (the resourceVersion
// read at the start), and skips the write when nothing changed. A conflict
// returns an error: nothing is published and the next reconcile redoes the
// edge from fresh observations.
func (r *Reconciler[P, S, T, O, W]) persist(ctx context.Context, run *Run[P, W], changed bool) error {
	if !changed {
		return nil
	}
	end := run.Spans.Start("Step WriteStatus")
	replaced := run.Object.GetResourceVersion()
	err := r.Client.Status().Update(ctx, run.Object)
	end(err)
	if err == nil {
		r.fresh.Wrote(client.ObjectKeyFromObject(run.Object), replaced)
	}
	return err
}

func (r *Reconciler[P, S, T, O, W]) publish(ctx context.Context, run *Run[P, W], journal []engine.Transition, ep Episode, state S, changed bool) {
	TransitionSpans(run.Spans, r.Kind.Definition.Name, journal)
	run.Spans.Finish(attribute.String("sm.state", string(state)))
	r.Publisher.Publish(ctx, Publication{
		Object: run.Object, Records: journal, Episode: ep, Spans: run.Spans,
		DidSomething: len(journal) > 0 || changed, State: string(state), Now: r.now(),
	})
}

// finished reports whether the object rests in a Final state whose step ran
// and succeeded in this reconcile: its finalizer may go. A Final state with
// no step (a deletion waiting for users to leave) keeps the finalizer.
func (r *Reconciler[P, S, T, O, W]) finished(run *Run[P, W], state S) bool {
	rec, _ := r.Kind.Definition.Record(state)
	if rec.Kind != engine.Final || rec.Activity == "" {
		return false
	}
	out, ran := run.Outcome(rec.Activity)
	return ran && out.Succeeded()
}

// lifecycle returns the object's lifecycle block, creating it when absent.
func (r *Reconciler[P, S, T, O, W]) lifecycle(obj P) *common.Lifecycle {
	l := r.Kind.Status(obj).Lifecycle
	if *l == nil {
		*l = &common.Lifecycle{Machine: r.Kind.Definition.Name}
	}
	return *l
}
