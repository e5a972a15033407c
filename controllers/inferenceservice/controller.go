// Package inferenceservice reconciles InferenceServices in Standard mode: it
// observes the world, lets the lifecycle machine decide, runs the current
// state's step, writes status once, and only then publishes Events, metrics
// and spans.
package inferenceservice

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/internal/tracing"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
)

// Reconciler reconciles InferenceServices.
type Reconciler struct {
	Client    client.Client
	Scheme    *runtime.Scheme
	Clock     clock.PassiveClock
	Config    *config.Source
	Publisher *lifecycle.Publisher
	// ClusterDomain is the cluster's DNS domain, for status.address.
	ClusterDomain string
	// fresh keeps reconciles off cached copies older than our status writes.
	fresh lifecycle.Freshness
}

// staleRetry is how soon a reconcile that read a stale copy comes back; the
// cache is normally a few milliseconds behind.
const staleRetry = 20 * time.Millisecond

func (r *Reconciler) now() time.Time { return r.Clock.Now() }

// Reconcile is the skeleton every fsmserve controller follows: observe,
// decide, act, write status once, then publish.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	isvc := &v1beta1.InferenceService{}
	if err := r.Client.Get(ctx, req.NamespacedName, isvc); err != nil {
		r.fresh.Forget(req.NamespacedName)
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.fresh.Stale(req.NamespacedName, isvc.ResourceVersion) {
		return ctrl.Result{RequeueAfter: staleRetry}, nil
	}
	if err := r.ensureFinalizer(ctx, isvc); err != nil {
		return ctrl.Result{}, err
	}
	sc := newScope(r, isvc)
	if err := sc.observe(ctx); err != nil {
		return ctrl.Result{}, err
	}
	m := machine.Machine.New(sc.storedState, machine.StateUnknown, r.now)
	obs := sc.observation()
	_, willMove := machine.Classify(m.State(), obs)
	plan := lifecycle.BeginEpisode(isvc.Status.Lifecycle, isvc.Generation, willMove || m.State() != machine.State(sc.storedState), r.now())
	sc.traceParent = tracing.FormatTraceParent(plan.Context)
	obs, runErr := m.Run(ctx, obs, sc.act)
	records := lifecycle.Records(m)
	sc.deriveStatus(ctx, m, obs)
	lifecycle.SettleEpisode(isvc.Status.Lifecycle, &plan, machine.Machine.KindOf(m.State()).EndsEpisode())
	if err := sc.persist(ctx); err != nil {
		return ctrl.Result{}, err
	}
	r.publish(ctx, sc, records, plan, m.State())
	if sc.removeFinalizer {
		return ctrl.Result{}, r.removeFinalizer(ctx, isvc)
	}
	return lifecycle.Result(ctx, runErr, sc.errs, sc.requeueAfter)
}

func (r *Reconciler) publish(ctx context.Context, sc *scope, records []lifecycle.Record, plan lifecycle.EpisodePlan, state machine.State) {
	lifecycle.TransitionSpans(sc.spans, machine.MachineName, records)
	sc.spans.Finish(attribute.String("sm.state", string(state)))
	r.Publisher.Publish(ctx, lifecycle.Outcome{
		Object: sc.isvc, Records: records, Plan: plan, Spans: sc.spans,
		DidSomething: len(records) > 0 || sc.changed, State: string(state), Now: time.Now(),
	})
}

// stateOf returns the state stored in status, "" for a new object.
func stateOf(isvc *v1beta1.InferenceService) string {
	if isvc.Status.Lifecycle == nil {
		return ""
	}
	return isvc.Status.Lifecycle.State
}

func ensureLifecycle(isvc *v1beta1.InferenceService) {
	if isvc.Status.Lifecycle == nil {
		isvc.Status.Lifecycle = &common.Lifecycle{Machine: machine.MachineName}
	}
}
