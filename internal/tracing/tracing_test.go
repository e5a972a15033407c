package tracing

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestTraceParentRoundTrip(t *testing.T) {
	sc := NewEpisodeContext()
	tp := FormatTraceParent(sc)
	assert.Regexp(t, `^00-[0-9a-f]{32}-[0-9a-f]{16}-01$`, tp)
	back := ParseTraceParent(tp)
	assert.Equal(t, sc.TraceID(), back.TraceID())
	assert.Equal(t, sc.SpanID(), back.SpanID())
	assert.False(t, ParseTraceParent("garbage").IsValid())
	assert.Equal(t, "4bf92f35", ShortID("4bf92f3577b34da6a3ce929d0e0e4736"))
}

func TestRecordedSpansAreEmittedUnderTheEpisodeRoot(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := NewProvider("test", rec)
	tracer := tp.Tracer(InstrumentationName)
	episode := NewEpisodeContext()

	r := NewRecorder("Reconcile InferenceService", attribute.String("k8s.object.name", "iris"))
	end := r.Start("Step EnsureDeployment")
	inner := r.Start("Apply Deployment")
	inner(nil)
	end(errors.New("conflict"))
	r.Add(&Span{Name: "Transition", Start: time.Now(), Attrs: []attribute.KeyValue{attribute.String("sm.to", "Ready")}})
	r.Finish()
	Emit(context.Background(), tracer, episode, r.Root())
	EmitRoot(context.Background(), tracer, episode, "Lifecycle InferenceService", time.Now().Add(-time.Minute), time.Now())

	spans := rec.Ended()
	require.Len(t, spans, 5)
	byName := map[string]int{}
	for i, s := range spans {
		byName[s.Name()] = i
		assert.Equal(t, episode.TraceID(), s.SpanContext().TraceID(), s.Name())
	}
	root := spans[byName["Lifecycle InferenceService"]]
	assert.Equal(t, episode.SpanID(), root.SpanContext().SpanID(), "the root keeps the IDs stored in status")
	assert.False(t, root.Parent().IsValid())
	reconcile := spans[byName["Reconcile InferenceService"]]
	assert.Equal(t, episode.SpanID(), reconcile.Parent().SpanID())
	step := spans[byName["Step EnsureDeployment"]]
	assert.Equal(t, reconcile.SpanContext().SpanID(), step.Parent().SpanID())
	assert.Equal(t, codes.Error, step.Status().Code)
	assert.Equal(t, step.SpanContext().SpanID(), spans[byName["Apply Deployment"]].Parent().SpanID())
	assert.Equal(t, reconcile.SpanContext().SpanID(), spans[byName["Transition"]].Parent().SpanID())
}

func TestSetupIsNoopWithoutEndpoint(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	tp, shutdown, err := Setup(context.Background(), "test")
	require.NoError(t, err)
	_, span := tp.Tracer("x").Start(context.Background(), "s")
	assert.False(t, span.SpanContext().IsValid())
	assert.NoError(t, shutdown(context.Background()))
}
