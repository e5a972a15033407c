package lifecycle

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"go.opentelemetry.io/otel/trace"
)

// EpisodePlan says which trace this reconcile belongs to and which episode
// root spans to emit once the status write succeeded.
type EpisodePlan struct {
	// Context is the root span context of the current episode.
	Context trace.SpanContext
	// Started is true when this reconcile began a new episode.
	Started bool
	// Settle is true when the episode ends in this reconcile; its root span
	// (covering the whole episode) is emitted.
	Settle bool
	// Episode is the current episode as stored in status.
	Episode common.LifecycleEpisode
	// Superseded is an earlier episode that never settled and ends now.
	Superseded *common.LifecycleEpisode
}

// BeginEpisode decides, before the machine runs, which episode this reconcile
// belongs to. A new episode, with a new trace, starts on the first reconcile,
// on a new generation, and when a settled machine is about to move again
// (willMove: Classify implies a trigger). It updates l in memory (Episode,
// TraceID) so children applied during the reconcile can carry the context.
func BeginEpisode(l *common.Lifecycle, generation int64, willMove bool, now time.Time) EpisodePlan {
	var plan EpisodePlan
	prev := l.Episode
	if prev == nil || prev.Generation != generation || (prev.Settled && willMove) {
		sc := tracing.NewEpisodeContext()
		l.Episode = &common.LifecycleEpisode{Generation: generation, StartedAt: metav1.NewTime(now), TraceParent: tracing.FormatTraceParent(sc)}
		plan.Started = true
		if prev != nil && !prev.Settled {
			old := *prev
			plan.Superseded = &old
		}
	}
	plan.Context = tracing.ParseTraceParent(l.Episode.TraceParent)
	if !plan.Context.IsValid() {
		// A hand-edited traceparent: start over rather than emit orphans.
		sc := tracing.NewEpisodeContext()
		l.Episode.TraceParent = tracing.FormatTraceParent(sc)
		plan.Context = sc
	}
	l.TraceID = plan.Context.TraceID().String()
	plan.Episode = *l.Episode
	return plan
}

// SettleEpisode ends the episode when the machine now rests in a state that
// ends episodes; the root span is then emitted at publish time, once.
func SettleEpisode(l *common.Lifecycle, plan *EpisodePlan, endsEpisode bool) {
	if endsEpisode && l.Episode != nil && !l.Episode.Settled {
		l.Episode.Settled = true
		plan.Settle = true
	}
	if l.Episode != nil {
		plan.Episode = *l.Episode
	}
}

// PlanEpisode is BeginEpisode and SettleEpisode in one step, for reconciles
// that need no trace context while they run.
func PlanEpisode(l *common.Lifecycle, generation int64, transitions int, endsEpisode bool, now time.Time) EpisodePlan {
	plan := BeginEpisode(l, generation, transitions > 0, now)
	SettleEpisode(l, &plan, endsEpisode)
	return plan
}
