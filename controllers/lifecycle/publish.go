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
	"github.com/fsmserve/fsmserve/machines/engine"
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

// Publication is everything one reconcile has to publish.
type Publication struct {
	Object  runtime.Object
	Records []engine.Transition
	Episode Episode
	// Spans is the reconcile's recorded span tree; nil or a reconcile that did
	// nothing emits no span.
	Spans *tracing.Recorder
	// DidSomething is true when a transition happened or a step changed the world.
	DidSomething bool
	// State is the state the machine rests in now.
	State string
	// Now is the reconcile's clock at publishing (the injected clock, the
	// one the episode's start was read from).
	Now time.Time
}

// Publish emits one Event per transition, counts transitions, and emits the
// reconcile's spans and any episode root that ends now.
func (p *Publisher) Publish(ctx context.Context, o Publication) {
	short := tracing.ShortID(o.Episode.Context.TraceID().String())
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
		tracing.Emit(ctx, p.Tracer, o.Episode.Context, o.Spans.Root())
	}
	if s := o.Episode.Superseded; s != nil {
		tracing.EmitRoot(ctx, p.Tracer, tracing.ParseTraceParent(s.TraceParent), "Lifecycle "+p.Kind, s.StartedAt.Time, o.Now,
			p.rootAttrs(o, s.Generation, "Superseded")...)
	}
	if o.Episode.Settled {
		tracing.EmitRoot(ctx, p.Tracer, o.Episode.Context, "Lifecycle "+p.Kind, o.Episode.Stored.StartedAt.Time, o.Now,
			p.rootAttrs(o, o.Episode.Stored.Generation, o.State)...)
	}
}

func (p *Publisher) rootAttrs(o Publication, generation int64, outcome string) []attribute.KeyValue {
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
