package localmodelnode

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/engine"
)

// machineRun is one machine's run over one entry of status.lifecycles: the
// machine built from the stored state, its tracing episode, its spans, and
// the lifecycle block it writes back.
type machineRun[S ~string, T ~string, O any] struct {
	spec    *engine.Definition[S, T, O]
	m       *engine.Machine[S, T, O]
	l       common.Lifecycle
	episode lifecycle.Episode
	spans   *tracing.Recorder
	records []engine.Transition
	now     func() time.Time
}

// beginRun builds the machine from stored (nil for a new lifecycle) and
// decides its episode before anything runs. A model's episode does not end
// when another model's entry changes the node's generation: the generation
// is the one the episode began at, and a new episode starts when a settled
// (or blocked) machine is about to move again.
func beginRun[S ~string, T ~string, O any](spec *engine.Definition[S, T, O], stored *common.Lifecycle, generation int64,
	clk func() time.Time, obs O, attrs ...attribute.KeyValue) *machineRun[S, T, O] {
	r := &machineRun[S, T, O]{spec: spec, l: common.Lifecycle{Machine: spec.Name}, now: clk}
	if stored != nil {
		r.l = *stored.DeepCopy()
	}
	r.m = spec.New(r.l.State, clk)
	moving := r.m.Begin(obs)
	if r.l.Episode != nil {
		generation = r.l.Episode.Generation
	}
	r.episode = lifecycle.OpenEpisode(&r.l, generation, moving || string(r.m.State()) != r.l.State, clk())
	r.spans = tracing.NewRecorder("Reconcile LocalModelNode", append(attrs, attribute.String("sm.machine", spec.Name))...)
	return r
}

// finish writes the lifecycle block and settles the episode, in memory.
func (r *machineRun[S, T, O]) finish(ctx context.Context) {
	r.records = r.m.Journal()
	r.m.WriteLifecycle(ctx, &r.l)
	r.episode.Close(&r.l, r.spec.KindOf(r.m.State()).EndsEpisode())
}

// enteredNow reports whether the last transition of this reconcile led into s.
func (r *machineRun[S, T, O]) enteredNow(s S) (T, bool) {
	j := r.m.Journal()
	if n := len(j); n > 0 && j[n-1].To == string(s) {
		return T(j[n-1].Trigger), true
	}
	var none T
	return none, false
}

// publish emits the run's Events, counters and spans, after the status write.
func (r *machineRun[S, T, O]) publish(ctx context.Context, p *lifecycle.Publisher, obj runtime.Object, changed bool) {
	r.publishFrom(ctx, p, obj, changed, 0)
}

// publishFrom publishes the records from index from on, with the run's spans
// and episode root.
func (r *machineRun[S, T, O]) publishFrom(ctx context.Context, p *lifecycle.Publisher, obj runtime.Object, changed bool, from int) {
	state := string(r.m.State())
	lifecycle.TransitionSpans(r.spans, r.spec.Name, r.records)
	r.spans.Finish(attribute.String("sm.state", state))
	p.Publish(ctx, lifecycle.Publication{
		Object: obj, Records: r.records[from:], Episode: r.episode, Spans: r.spans,
		DidSomething: len(r.records) > 0 || changed, State: state, Now: r.now(),
	})
}

// publishEventsUpTo publishes only the Events of the first n records: the
// transitions that happened before a nested machine ran, so Events keep the
// order in which the transitions happened.
func (r *machineRun[S, T, O]) publishEventsUpTo(ctx context.Context, p *lifecycle.Publisher, obj runtime.Object, n int) {
	n = min(n, len(r.records))
	if n == 0 {
		return
	}
	p.Publish(ctx, lifecycle.Publication{Object: obj, Records: r.records[:n], Episode: lifecycle.Episode{Context: r.episode.Context}, Now: r.now()})
}
