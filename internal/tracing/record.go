package tracing

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Span is a span recorded during a reconcile and emitted later.
type Span struct {
	Name     string
	Start    time.Time
	End      time.Time
	Attrs    []attribute.KeyValue
	Err      string
	Children []*Span
}

// Recorder collects the spans of one reconcile: a root and a tree of children.
// It is not safe for concurrent use; one reconcile is one goroutine.
type Recorder struct {
	root  *Span
	stack []*Span
	now   func() time.Time
}

// NewRecorder starts recording a root span with the given name.
func NewRecorder(name string, attrs ...attribute.KeyValue) *Recorder {
	root := &Span{Name: name, Start: time.Now(), Attrs: attrs}
	return &Recorder{root: root, stack: []*Span{root}, now: time.Now}
}

// Root returns the root span record.
func (r *Recorder) Root() *Span { return r.root }

// Start opens a child of the innermost open span and returns a function that
// closes it, recording err (if any) as its error.
func (r *Recorder) Start(name string, attrs ...attribute.KeyValue) func(err error, more ...attribute.KeyValue) {
	s := &Span{Name: name, Start: r.now(), Attrs: attrs}
	parent := r.stack[len(r.stack)-1]
	parent.Children = append(parent.Children, s)
	r.stack = append(r.stack, s)
	return func(err error, more ...attribute.KeyValue) {
		s.End = r.now()
		s.Attrs = append(s.Attrs, more...)
		if err != nil {
			s.Err = err.Error()
		}
		if n := len(r.stack); n > 1 && r.stack[n-1] == s {
			r.stack = r.stack[:n-1]
		}
	}
}

// Add appends an already-timed child to the innermost open span.
func (r *Recorder) Add(s *Span) {
	parent := r.stack[len(r.stack)-1]
	parent.Children = append(parent.Children, s)
}

// Finish closes the root span.
func (r *Recorder) Finish(more ...attribute.KeyValue) {
	r.root.End = r.now()
	r.root.Attrs = append(r.root.Attrs, more...)
}

// Emit sends a recorded span tree through tracer as children of parent.
func Emit(ctx context.Context, tracer trace.Tracer, parent trace.SpanContext, s *Span) {
	if parent.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, parent)
	}
	emit(ctx, tracer, s)
}

func emit(ctx context.Context, tracer trace.Tracer, s *Span) {
	end := s.End
	if end.IsZero() {
		end = s.Start
	}
	ctx, span := tracer.Start(ctx, s.Name, trace.WithTimestamp(s.Start), trace.WithAttributes(s.Attrs...))
	for _, c := range s.Children {
		emit(ctx, tracer, c)
	}
	if s.Err != "" {
		span.SetStatus(codes.Error, s.Err)
	}
	span.End(trace.WithTimestamp(end))
}

// EmitRoot emits an episode's root span under the IDs stored in its
// traceparent, so spans emitted earlier as its children find their parent.
func EmitRoot(ctx context.Context, tracer trace.Tracer, root trace.SpanContext, name string, start, end time.Time, attrs ...attribute.KeyValue) {
	ctx = withForcedIDs(trace.ContextWithSpanContext(ctx, trace.SpanContext{}), root.TraceID(), root.SpanID())
	_, span := tracer.Start(ctx, name, trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithNewRoot())
	span.End(trace.WithTimestamp(end))
}
