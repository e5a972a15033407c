package router

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// graphRouter executes the compiled graph for each request.
type graphRouter struct {
	plan    *plan
	client  *http.Client
	headers headerPolicy
	log     *slog.Logger
	tracer  trace.Tracer             // nil when tracing is off; see startSpan
	prop    propagation.TraceContext // W3C only: it writes nothing without a valid span context, which ServeHTTP relies on
	metrics *metrics

	graphTimeout       time.Duration
	graphTimeoutCause  *timeoutError
	clientTimeout      time.Duration
	clientTimeoutCause *timeoutError
	maxRequestBytes    int64
	maxResponseBytes   int64

	// intn picks the splitter's point in [0,n); tests replace it with a seeded source.
	intn func(n int) int

	lastActivity atomic.Int64 // unix nanoseconds of the last request start or end
}

// reply is what a step or a node produced: a status and either a buffered body
// or, for the final step only, a stream still to be copied.
type reply struct {
	status int
	body   []byte
	stream *stream
}

// exchange is the per-request state shared by every step of one request.
type exchange struct {
	headers http.Header // inbound headers selected for propagation
	// shared, when set, are the headers of every downstream call (read-only):
	// no call of this request sends a trace context. Otherwise each call
	// builds its own from headers.
	shared http.Header
	busy   busyClock
}

func newGraphRouter(p *plan, g *graphSpec, o *Options, m *metrics, client *http.Client) *graphRouter {
	gr := &graphRouter{
		plan:             p,
		client:           client,
		headers:          compileHeaderPolicy(o.PropagateHeaders, o.Logger),
		log:              o.Logger,
		prop:             propagation.TraceContext{},
		metrics:          m,
		graphTimeout:     g.Timeout.duration(0),
		maxRequestBytes:  o.MaxRequestBytes,
		maxResponseBytes: o.MaxResponseBytes,
		intn:             rand.IntN,
	}
	if _, off := o.TracerProvider.(noop.TracerProvider); !off {
		gr.tracer = o.TracerProvider.Tracer(tracerName)
	}
	if gr.graphTimeout > 0 {
		gr.graphTimeoutCause = &timeoutError{limit: gr.graphTimeout, what: "graph timeout"}
	}
	if g.RouterTimeouts != nil {
		gr.clientTimeout = g.RouterTimeouts.ServiceClient.duration(0)
	}
	if gr.clientTimeout > 0 {
		gr.clientTimeoutCause = &timeoutError{limit: gr.clientTimeout, what: "routerTimeouts.serviceClient"}
	}
	return gr
}

// startSpan starts a span, unless tracing is off. The no-op tracer would
// only wrap the context around a span that records nothing, an allocation
// per span that changes nothing: the propagator finds the same span context
// (the caller's, or none) either way.
func (g *graphRouter) startSpan(ctx context.Context, name string, opts []trace.SpanStartOption) (context.Context, trace.Span) {
	if g.tracer == nil {
		if span := trace.SpanFromContext(ctx); !span.IsRecording() {
			return ctx, span // ending it is a no-op, as it should be
		}
		// A recording span of the embedding program's: never end it.
		return noopTracer.Start(ctx, name, opts...)
	}
	return g.tracer.Start(ctx, name, opts...)
}

var noopTracer = noop.NewTracerProvider().Tracer(tracerName)

// runNode executes one node. last is true when this node's final step is the
// last thing the root executes, which is the only place a stream may pass
// through unbuffered.
func (g *graphRouter) runNode(ctx context.Context, ex *exchange, n *planNode, input []byte, last bool) (reply, error) {
	switch n.routerType {
	case typeSequence:
		return g.runSequence(ctx, ex, n, input, last)
	case typeSplitter:
		return g.runSplitter(ctx, ex, n, input, last)
	case typeSwitch:
		return g.runSwitch(ctx, ex, n, input, last)
	case typeEnsemble:
		return g.runEnsemble(ctx, ex, n, input)
	}
	return reply{}, failf(http.StatusInternalServerError, "invalid route type: %v", n.routerType)
}

// runStep executes one step: a nested node or a service call, within the
// step's own timeout, as one span and one latency observation.
func (g *graphRouter) runStep(ctx context.Context, ex *exchange, s *planStep, input []byte, last bool) (reply, error) {
	start := time.Now()
	ctx, span := g.startSpan(ctx, s.spanName, s.spanOpts)
	if span.IsRecording() {
		span.SetAttributes(s.spanAttrs...)
	}
	var cancel context.CancelFunc
	if s.timeout > 0 {
		ctx, cancel = context.WithTimeoutCause(ctx, s.timeout, s.timeoutCause)
	}
	var rep reply
	var err error
	if s.child != nil {
		rep, err = g.runNode(ctx, ex, s.child, input, last)
	} else {
		rep, err = g.call(ctx, ex, s, input, last)
	}
	if err != nil || rep.stream == nil {
		g.finishStep(ctx, s, span, cancel, start, rep.status, err)
		return rep, err
	}
	// A stream's step lasts until its body has been copied.
	status := rep.status
	rep.deferUntilDone(func() { g.finishStep(ctx, s, span, cancel, start, status, nil) })
	return rep, nil
}

func (g *graphRouter) finishStep(ctx context.Context, s *planStep, span trace.Span, cancel context.CancelFunc, start time.Time, status int, err error) {
	if cancel != nil {
		cancel()
	}
	elapsed := time.Since(start)
	s.latency.Observe(elapsed.Seconds())
	endSpan(span, status, err)
	g.logStep(ctx, s, status, elapsed, err)
}

func (g *graphRouter) logStep(ctx context.Context, s *planStep, code int, elapsed time.Duration, err error) {
	if !g.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("node", s.node.name),
		slog.String("step", s.label),
		slog.String("target", s.target),
		slog.Int("status", code),
		slog.Duration("elapsed", elapsed),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	if s.hard && err == nil && !isSuccess(code) {
		attrs = append(attrs, slog.Bool("hardDependencyFailed", true))
	}
	g.log.LogAttrs(ctx, slog.LevelDebug, "step finished", attrs...)
}
