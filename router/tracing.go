package router

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

const (
	tracerName         = "github.com/fsmserve/fsmserve/router"
	defaultServiceName = "fsmserve-router"
	serverSpanName     = "InferenceGraph"
)

// Span attribute keys. They are ours (not semantic conventions), dot-namespaced.
var (
	attrRouterNode   = attribute.Key("router.node")
	attrRouterType   = attribute.Key("router.type")
	attrRouterStep   = attribute.Key("router.step")
	attrRouterTarget = attribute.Key("router.target")
	attrStatusCode   = attribute.Key("http.response.status_code")
	attrMethod       = attribute.Key("http.request.method")
	attrPath         = attribute.Key("url.path")
)

// newTracerProvider exports spans over OTLP/HTTP when the standard
// OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-only variant) is set; otherwise
// tracing is a no-op. The exporter reads the rest of the OTEL_* environment
// itself, and OTEL_SERVICE_NAME overrides the default service name.
func newTracerProvider(ctx context.Context) (trace.TracerProvider, func(context.Context) error, error) {
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return noop.NewTracerProvider(), func(context.Context) error { return nil }, nil
	}
	exporter, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the OTLP trace exporter: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", defaultServiceName)),
		resource.WithFromEnv(),
		resource.WithTelemetrySDK(),
	)
	if err != nil {
		return nil, nil, fmt.Errorf("describing the trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	return tp, tp.Shutdown, nil
}

// headerCarrier is propagation.HeaderCarrier for the W3C keys, minus the
// allocations of canonicalising "traceparent" and "tracestate" on every call.
type headerCarrier http.Header

func canonicalTraceKey(key string) string {
	switch key {
	case "traceparent":
		return "Traceparent"
	case "tracestate":
		return "Tracestate"
	}
	return http.CanonicalHeaderKey(key)
}

func (c headerCarrier) Get(key string) string {
	if v := c[canonicalTraceKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func (c headerCarrier) Set(key, value string) { c[canonicalTraceKey(key)] = []string{value} }

func (c headerCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}

// endSpan records the outcome of a step or request on its span.
func endSpan(span trace.Span, code int, err error) {
	if span.IsRecording() {
		if code != 0 {
			span.SetAttributes(attrStatusCode.Int(code))
		}
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		} else if code >= 500 {
			span.SetStatus(codes.Error, "status "+fmt.Sprint(code))
		}
	}
	span.End()
}
