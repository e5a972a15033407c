package lifecycle

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"go.opentelemetry.io/otel/trace"
)

// Episode is the tracing episode a reconcile belongs to: one journey from a
// settled (or blocked) state to the next, one trace. It is opened before the
// machine runs, so children applied during the reconcile can carry its
// context, and closed after, when the state the machine rests in is known.
type Episode struct {
	// Context is the root span context of the current episode.
	Context trace.SpanContext
	// Started is true when this reconcile began a new episode.
	Started bool
	// Settled is true when the episode ends in this reconcile; its root span
	// (covering the whole episode) is emitted at publish time, once.
	Settled bool
	// Stored is the current episode as stored in status.
	Stored common.LifecycleEpisode
	// Superseded is an earlier episode that never settled and ends now.
	Superseded *common.LifecycleEpisode
}

// OpenEpisode decides, before the machine runs, which episode this reconcile
// belongs to. A new episode, with a new trace, starts on the first reconcile,
// on a new generation, and when a settled machine is about to move again.
// It updates l in memory (Episode, TraceID).
func OpenEpisode(l *common.Lifecycle, generation int64, moving bool, now time.Time) Episode {
	var ep Episode
	prev := l.Episode
	if prev == nil || prev.Generation != generation || (prev.Settled && moving) {
		sc := tracing.NewEpisodeContext()
		l.Episode = &common.LifecycleEpisode{Generation: generation, StartedAt: metav1.NewTime(now), TraceParent: tracing.FormatTraceParent(sc)}
		ep.Started = true
		if prev != nil && !prev.Settled {
			old := *prev
			ep.Superseded = &old
		}
	}
	ep.Context = tracing.ParseTraceParent(l.Episode.TraceParent)
	if !ep.Context.IsValid() {
		// A hand-edited traceparent: start over rather than emit orphans.
		sc := tracing.NewEpisodeContext()
		l.Episode.TraceParent = tracing.FormatTraceParent(sc)
		ep.Context = sc
	}
	l.TraceID = ep.Context.TraceID().String()
	ep.Stored = *l.Episode
	return ep
}

// Close ends the episode when the machine now rests in a state that ends
// episodes.
func (ep *Episode) Close(l *common.Lifecycle, endsEpisode bool) {
	if endsEpisode && l.Episode != nil && !l.Episode.Settled {
		l.Episode.Settled = true
		ep.Settled = true
	}
	if l.Episode != nil {
		ep.Stored = *l.Episode
	}
}

// TraceParent is the episode's W3C trace context.
func (ep Episode) TraceParent() string { return tracing.FormatTraceParent(ep.Context) }
