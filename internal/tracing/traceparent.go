package tracing

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

var traceContext = propagation.TraceContext{}

// FormatTraceParent renders a span context as a W3C traceparent header value.
func FormatTraceParent(sc trace.SpanContext) string {
	carrier := propagation.MapCarrier{}
	traceContext.Inject(trace.ContextWithSpanContext(context.Background(), sc), carrier)
	return carrier.Get("traceparent")
}

// ParseTraceParent reads a W3C traceparent; the result is invalid when the
// text is not one.
func ParseTraceParent(tp string) trace.SpanContext {
	ctx := traceContext.Extract(context.Background(), propagation.MapCarrier{"traceparent": tp})
	return trace.SpanContextFromContext(ctx)
}

// ShortID is the first eight hex digits of a trace ID, for event messages.
func ShortID(traceID string) string {
	if len(traceID) > 8 {
		return traceID[:8]
	}
	return traceID
}
