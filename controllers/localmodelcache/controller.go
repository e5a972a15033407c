// Package localmodelcache reconciles LocalModelCaches and
// LocalModelNamespaceCaches: it observes the node groups, their nodes, the
// LocalModelNodes the node agents report on and the InferenceServices that
// use the cache, lets the lifecycle machine decide, runs the current state's
// step (writing LocalModelNode entries, creating the download and serving
// volumes, cleaning up), writes status once, and only then publishes Events,
// metrics and spans.
package localmodelcache

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
)

// Reconciler reconciles the caches of one Kind.
type Reconciler struct {
	Client client.Client
	// APIReader reads LocalModelNodes afresh when a write conflicts, so a
	// retry never works from a stale cache.
	APIReader client.Reader
	Clock     clock.PassiveClock
	Config    *config.Source
	Publisher *lifecycle.Publisher
	Kind      Kind
	// fresh keeps reconciles off cached copies older than our status writes.
	fresh lifecycle.Freshness
}

// staleRetry is how soon a reconcile that read a stale copy comes back.
const staleRetry = 20 * time.Millisecond

func (r *Reconciler) now() time.Time { return r.Clock.Now() }

// Reconcile is the skeleton every fsmserve controller follows: observe,
// decide, act, write status once, then publish.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.Kind.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		r.fresh.Forget(req.NamespacedName)
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.fresh.Stale(req.NamespacedName, obj.GetResourceVersion()) {
		return ctrl.Result{RequeueAfter: staleRetry}, nil
	}
	if err := r.ensureFinalizer(ctx, obj); err != nil {
		return ctrl.Result{}, err
	}
	sc := newScope(r, obj)
	if err := sc.observe(ctx); err != nil {
		return ctrl.Result{}, err
	}
	m := machine.Machine.New(sc.storedState, machine.StateUnknown, r.now)
	obs := sc.observation()
	_, willMove := machine.Classify(m.State(), obs)
	l := sc.view.status.Lifecycle
	plan := lifecycle.BeginEpisode(l, obj.GetGeneration(), willMove || m.State() != machine.State(sc.storedState), r.now())
	obs, runErr := m.Run(ctx, obs, sc.act)
	records := lifecycle.Records(m)
	sc.deriveStatus(ctx, m, obs)
	lifecycle.SettleEpisode(l, &plan, machine.Machine.KindOf(m.State()).EndsEpisode())
	if err := sc.persist(ctx); err != nil {
		return ctrl.Result{}, err
	}
	r.publish(ctx, sc, records, plan, m.State())
	if sc.removeFinalizer {
		return ctrl.Result{}, r.removeFinalizer(ctx, obj)
	}
	return lifecycle.Result(ctx, runErr, sc.errs, 0)
}

func (r *Reconciler) publish(ctx context.Context, sc *scope, records []lifecycle.Record, plan lifecycle.EpisodePlan, state machine.State) {
	lifecycle.TransitionSpans(sc.spans, machine.MachineName, records)
	sc.spans.Finish(attribute.String("sm.state", string(state)))
	r.Publisher.Publish(ctx, lifecycle.Outcome{
		Object: sc.view.obj, Records: records, Plan: plan, Spans: sc.spans,
		DidSomething: len(records) > 0 || sc.changed, State: string(state), Now: time.Now(),
	})
}

// stateOf returns the state stored in status, "" for a new cache.
func stateOf(v view) string {
	if v.status.Lifecycle == nil {
		return ""
	}
	return v.status.Lifecycle.State
}

func ensureLifecycle(v view) {
	if v.status.Lifecycle == nil {
		v.status.Lifecycle = &common.Lifecycle{Machine: machine.MachineName}
	}
}
