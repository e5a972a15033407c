package router

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/tidwall/gjson"
)

var serverSpanOpts = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}

// ServeHTTP runs the root node for a request of any method and path.
func (g *graphRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	g.metrics.inFlight.Add(1)
	g.lastActivity.Store(start.UnixNano())

	ctx := g.prop.Extract(r.Context(), headerCarrier(r.Header))
	ctx, span := g.startSpan(ctx, serverSpanName, serverSpanOpts)
	if span.IsRecording() {
		span.SetAttributes(attrMethod.String(r.Method), attrPath.String(r.URL.Path))
	}
	if g.graphTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, g.graphTimeout, g.graphTimeoutCause)
		defer cancel()
	}
	ex := &exchange{headers: g.headers.selectHeaders(r.Header)}
	// Without a tracer no step starts a span, so every call carries the
	// span context found here, if any.
	if g.tracer == nil && !trace.SpanContextFromContext(ctx).IsValid() {
		ex.shared = sharedCallHeaders(ex.headers)
	}
	code, err := http.StatusInternalServerError, error(nil)
	// Deferred so that the books are kept even when a broken stream aborts
	// the handler.
	defer func() {
		end := time.Now()
		g.metrics.observeRequest(code, end.Sub(start), ex.busy.elapsed(end))
		endSpan(span, code, err)
		g.lastActivity.Store(end.UnixNano())
		g.metrics.inFlight.Add(-1)
	}()
	code, err = g.serve(ctx, w, r, ex)
	if errors.Is(err, errStreamBroken) {
		// The status line is out; aborting the connection is the only way
		// to tell the client the body is incomplete.
		panic(http.ErrAbortHandler)
	}
}

// serve reads the request, runs the graph and writes the answer. It returns
// the status sent and the error behind a failure.
func (g *graphRouter) serve(ctx context.Context, w http.ResponseWriter, r *http.Request, ex *exchange) (int, error) {
	input, err := readRequestBody(w, r, g.maxRequestBytes)
	if err != nil {
		return writeError(w, err), err
	}
	rep, err := g.runNode(ctx, ex, g.plan.root, input, true)
	if err != nil {
		if code := statusOf(err); code != statusClientClosedRequest {
			g.log.Debug("request failed", "status", code, "error", err)
		}
		return writeError(w, err), err
	}
	if rep.stream != nil {
		defer rep.stream.close()
		if err := copyStream(w, rep); err != nil {
			g.log.Debug("streaming the response stopped early", "error", err)
			return rep.status, err
		}
		return rep.status, nil
	}
	writeReply(w, rep)
	return rep.status, nil
}

// writeReply sends a buffered reply. As in KServe, it is labelled JSON only
// when it is JSON. The length is always declared, so a router calling this
// router does not take the answer for a stream.
func writeReply(w http.ResponseWriter, rep reply) {
	h := w.Header()
	if gjson.ValidBytes(rep.body) { // same verdict as encoding/json, several times faster
		h["Content-Type"] = jsonContentType
	}
	h["Content-Length"] = []string{strconv.Itoa(len(rep.body))}
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body) // a failed write means the client left; nothing to do
}

// writeError sends the KServe-shaped error body and returns its status.
func writeError(w http.ResponseWriter, err error) int {
	code := statusOf(err)
	if code == statusClientClosedRequest {
		return code // nobody is listening
	}
	body := errorResponse(err)
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(code)
	_, _ = w.Write(body) // a failed write means the client left; nothing to do
	return code
}
