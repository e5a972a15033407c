// Package tracing sets up OpenTelemetry for fsmserve and publishes the spans of
// a lifecycle episode. Spans are recorded while a reconcile runs and emitted
// only after its status write succeeded, with explicit timestamps, so a
// reconcile whose write failed leaves no trace and the retry tells the story.
package tracing

import (
	"context"
	"os"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// InstrumentationName names fsmserve's tracer.
const InstrumentationName = "github.com/fsmserve/fsmserve"

// NewProvider returns an SDK tracer provider that exports through exporter and
// can emit spans under IDs decided earlier (the episode root's IDs are stored in
// status before the root span is emitted).
func NewProvider(service string, processor sdktrace.SpanProcessor) *sdktrace.TracerProvider {
	res := resource.NewSchemaless(semconv.ServiceName(service))
	return sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(processor),
		sdktrace.WithIDGenerator(newIDGenerator()),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
	)
}

// Setup installs the global tracer provider and W3C propagators: OTLP over HTTP
// when OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set, a no-op
// otherwise. The returned function flushes and stops the exporter.
func Setup(ctx context.Context, service string) (trace.TracerProvider, func(context.Context) error, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		tp := noop.NewTracerProvider()
		otel.SetTracerProvider(tp)
		return tp, func(context.Context) error { return nil }, nil
	}
	exporter, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, err
	}
	tp := NewProvider(service, sdktrace.NewBatchSpanProcessor(exporter))
	otel.SetTracerProvider(tp)
	return tp, tp.Shutdown, nil
}
