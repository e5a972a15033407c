package lifecycle

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"

	"github.com/fsmserve/fsmserve/internal/tracing"
)

// Publisher emits what a reconcile did, after its status write succeeded.
type Publisher struct {
	Events events.EventRecorder
	Tracer trace.Tracer
	// Kind is the object kind, e.g. InferenceService, used in span names.
	Kind string
	// Machine is the machine name, for metrics and span attributes.
	Machine string
}

// Outcome is everything one reconcile has to publish.
type Outcome struct {
	Object  runtime.Object
	Records []Record
	Plan    EpisodePlan
	// Spans is the reconcile's recorded span tree; nil or a reconcile that did
	// nothing emits no span.
	Spans *tracing.Recorder
	// DidSomething is true when a transition happened or a step changed the world.
	DidSomething bool
	// State is the state the machine rests in now.
	State string
	// Now is the wall-clock time of publishing.
	Now time.Time
}

// Publish emits one Event per transition, counts transitions, and emits the
// reconcile's spans and any episode root that ends now.
func (p *Publisher) Publish(ctx context.Context, o Outcome) {
	short := tracing.ShortID(o.Plan.Context.TraceID().String())
	for _, r := range o.Records {
		eventType := corev1.EventTypeNormal
		if r.Failing {
			eventType = corev1.EventTypeWarning
		}
		note := fmt.Sprintf("%s -> %s (%s)", r.From, r.To, r.Trigger)
		if r.Message != "" {
			note += ": " + r.Message
		}
		note += " [trace " + short + "]"
		if p.Events != nil {
			p.Events.Eventf(o.Object, nil, eventType, r.EventReason(), r.Trigger, "%s", truncate(note, 1000))
		}
		transitionsTotal.WithLabelValues(p.Machine, r.From, r.To, r.Trigger).Inc()
	}
	if p.Tracer == nil {
		return
	}
	if o.Spans != nil && o.DidSomething {
		tracing.Emit(ctx, p.Tracer, o.Plan.Context, o.Spans.Root())
	}
	if s := o.Plan.Superseded; s != nil {
		tracing.EmitRoot(ctx, p.Tracer, tracing.ParseTraceParent(s.TraceParent), "Lifecycle "+p.Kind, s.StartedAt.Time, o.Now,
			p.rootAttrs(o, s.Generation, "Superseded")...)
	}
	if o.Plan.Settle {
		tracing.EmitRoot(ctx, p.Tracer, o.Plan.Context, "Lifecycle "+p.Kind, o.Plan.Episode.StartedAt.Time, o.Now,
			p.rootAttrs(o, o.Plan.Episode.Generation, o.State)...)
	}
}

func (p *Publisher) rootAttrs(o Outcome, generation int64, outcome string) []attribute.KeyValue {
	attrs := append(ObjectAttributes(o.Object), attribute.String("sm.machine", p.Machine),
		attribute.Int64("k8s.object.generation", generation), attribute.String("sm.episode.outcome", outcome))
	return attrs
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
