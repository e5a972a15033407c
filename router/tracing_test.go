package router

import (
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

const (
	inboundTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	inboundSpanID  = "00f067aa0ba902b7"
	inboundParent  = "00-" + inboundTraceID + "-" + inboundSpanID + "-01"
)

func spanAttr(s sdktrace.ReadOnlySpan, key attribute.Key) attribute.Value {
	for _, kv := range s.Attributes() {
		if kv.Key == key {
			return kv.Value
		}
	}
	return attribute.Value{}
}

// tracedGraph runs one request with a caller's trace context through a
// Sequence whose second step nests a Splitter, recording the spans.
type tracedGraph struct {
	first, second *recorder
	firstURL      string
	spans         map[string]sdktrace.ReadOnlySpan
}

func runTracedGraph(t *testing.T) tracedGraph {
	tg := tracedGraph{first: &recorder{body: `{"a":1}`}, second: &recorder{status: 503, body: `{"b":2}`}}
	tg.firstURL = newBackend(t, tg.first).URL
	secondURL := newBackend(t, tg.second).URL
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	r := startRouter(t, graphOf(t, map[string]nodeSpec{
		"root":  sequence(stepSpec{Name: "one", ServiceURL: tg.firstURL}, stepSpec{Name: "nested", NodeName: "inner"}),
		"inner": splitter(stepSpec{Name: "two", ServiceURL: secondURL, Weight: weight(100)}),
	}), func(o *Options) {
		o.TracerProvider = tp
		o.PropagateHeaders = ".*" // traceparent must still not be copied verbatim
	})
	post(t, r.url, `{}`, "Traceparent", inboundParent, "Tracestate", "vendor=1")
	tg.spans = map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans.Ended() {
		tg.spans[s.Name()] = s
	}
	for _, name := range []string{serverSpanName, "Step one", "Step nested", "Step two"} {
		if tg.spans[name] == nil {
			t.Fatalf("span %q missing; recorded %v", name, tg.spans)
		}
	}
	return tg
}

func TestSpansFollowTheGraph(t *testing.T) {
	tg := runTracedGraph(t)
	server, one, nested, two := tg.spans[serverSpanName], tg.spans["Step one"], tg.spans["Step nested"], tg.spans["Step two"]
	if server.SpanKind() != trace.SpanKindServer || server.Parent().SpanID().String() != inboundSpanID || !server.Parent().IsRemote() {
		t.Errorf("server span kind %v parent %v, want a server span under the caller's span", server.SpanKind(), server.Parent().SpanID())
	}
	parents := []struct {
		child, parent sdktrace.ReadOnlySpan
	}{{one, server}, {nested, server}, {two, nested}}
	for _, p := range parents {
		if p.child.Parent().SpanID() != p.parent.SpanContext().SpanID() {
			t.Errorf("%s is not a child of %s", p.child.Name(), p.parent.Name())
		}
		if p.child.SpanContext().TraceID().String() != inboundTraceID {
			t.Errorf("%s has trace %s, want the caller's", p.child.Name(), p.child.SpanContext().TraceID())
		}
	}
	attrs := []struct {
		span sdktrace.ReadOnlySpan
		key  attribute.Key
		want string
	}{
		{one, attrRouterType, typeSequence}, {one, attrRouterTarget, tg.firstURL}, {one, attrRouterNode, "root"},
		{nested, attrRouterTarget, "node:inner"}, {two, attrRouterType, typeSplitter}, {two, attrRouterStep, "two"},
	}
	for _, a := range attrs {
		if got := spanAttr(a.span, a.key).Emit(); got != a.want {
			t.Errorf("%s %s = %q, want %q", a.span.Name(), a.key, got, a.want)
		}
	}
	if got := spanAttr(two, attrStatusCode).AsInt64(); got != 503 {
		t.Errorf("status code attribute %d, want 503", got)
	}
	if got := spanAttr(server, attrStatusCode).AsInt64(); got != 503 {
		t.Errorf("server span status code %d, want 503", got)
	}
}

// Each backend continues the caller's trace from its own step span, with
// the caller's tracestate, and never sees the caller's traceparent copied.
func TestTraceContextReachesBackends(t *testing.T) {
	tg := runTracedGraph(t)
	for _, c := range []struct {
		rec  *recorder
		step sdktrace.ReadOnlySpan
	}{{tg.first, tg.spans["Step one"]}, {tg.second, tg.spans["Step two"]}} {
		got := c.rec.all()[0].header.Values("Traceparent")
		want := "00-" + inboundTraceID + "-" + c.step.SpanContext().SpanID().String() + "-01"
		if len(got) != 1 || got[0] != want {
			t.Errorf("backend got traceparent %q, want %q", got, want)
		}
		if ts := c.rec.all()[0].header.Get("Tracestate"); ts != "vendor=1" {
			t.Errorf("backend got tracestate %q, want the caller's carried by the propagator", ts)
		}
	}
}

func TestTracingWithoutInboundContextStartsATrace(t *testing.T) {
	rec := &recorder{body: `{}`}
	url := newBackend(t, rec).URL
	spans := tracetest.NewSpanRecorder()
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: url})}),
		func(o *Options) { o.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)) })
	post(t, r.url, `{}`)
	ended := spans.Ended()
	if len(ended) != 2 {
		t.Fatalf("%d spans, want the server span and one step", len(ended))
	}
	tp := rec.all()[0].header.Get("Traceparent")
	if !strings.Contains(tp, ended[0].SpanContext().TraceID().String()) {
		t.Fatalf("backend traceparent %q is not in the router's trace", tp)
	}
}

func TestNoopTracingStillForwardsTheCallersContext(t *testing.T) {
	rec := &recorder{body: `{}`}
	url := newBackend(t, rec).URL
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: url})}))
	post(t, r.url, `{}`, "Traceparent", inboundParent)
	if got := rec.all()[0].header.Get("Traceparent"); got != inboundParent {
		t.Fatalf("backend got traceparent %q, want the caller's %q", got, inboundParent)
	}
}

func TestErrorsAreRecordedOnSpans(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": switchOf(stepSpec{ServiceURL: "http://127.0.0.1:1", Condition: "x"})}),
		func(o *Options) { o.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)) })
	post(t, r.url, `{"x":1}`)
	for _, s := range spans.Ended() {
		if s.Status().Code.String() != "Error" {
			t.Errorf("span %s has status %v, want Error", s.Name(), s.Status())
		}
	}
}
