package tracing

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"sync"

	"go.opentelemetry.io/otel/trace"
)

type forcedIDsKey struct{}

type forcedIDs struct {
	traceID trace.TraceID
	spanID  trace.SpanID
}

// withForcedIDs makes the next span started with ctx use exactly these IDs.
func withForcedIDs(ctx context.Context, tid trace.TraceID, sid trace.SpanID) context.Context {
	return context.WithValue(ctx, forcedIDsKey{}, forcedIDs{tid, sid})
}

// idGenerator hands out random IDs, except for spans whose IDs were decided
// before they were emitted (an episode root, whose traceparent is in status).
type idGenerator struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newIDGenerator() *idGenerator {
	var seed [32]byte
	_, _ = crand.Read(seed[:])
	return &idGenerator{rng: rand.New(rand.NewChaCha8(seed))}
}

func (g *idGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if f, ok := ctx.Value(forcedIDsKey{}).(forcedIDs); ok {
		return f.traceID, f.spanID
	}
	return g.newTraceID(), g.NewSpanID(ctx, trace.TraceID{})
}

func (g *idGenerator) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	if f, ok := ctx.Value(forcedIDsKey{}).(forcedIDs); ok {
		return f.spanID
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var sid trace.SpanID
	for sid == (trace.SpanID{}) {
		binary.BigEndian.PutUint64(sid[:], g.rng.Uint64())
	}
	return sid
}

func (g *idGenerator) newTraceID() trace.TraceID {
	g.mu.Lock()
	defer g.mu.Unlock()
	var tid trace.TraceID
	for tid == (trace.TraceID{}) {
		binary.BigEndian.PutUint64(tid[:8], g.rng.Uint64())
		binary.BigEndian.PutUint64(tid[8:], g.rng.Uint64())
	}
	return tid
}

// NewEpisodeContext returns a fresh span context for an episode root, whose
// IDs go into status (as a traceparent) before the root span is emitted.
func NewEpisodeContext() trace.SpanContext {
	var tid trace.TraceID
	var sid trace.SpanID
	for tid == (trace.TraceID{}) || sid == (trace.SpanID{}) {
		_, _ = crand.Read(tid[:])
		_, _ = crand.Read(sid[:])
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true})
}
