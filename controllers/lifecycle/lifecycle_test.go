package lifecycle

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/engine"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// planEpisode opens and closes an episode as one reconcile does.
func planEpisode(l *common.Lifecycle, generation int64, transitions int, endsEpisode bool, at time.Time) Episode {
	ep := OpenEpisode(l, generation, transitions > 0, at)
	ep.Close(l, endsEpisode)
	return ep
}

func TestEpisodes(t *testing.T) {
	t.Run("first reconcile starts an episode", func(t *testing.T) {
		l := &common.Lifecycle{}
		p := planEpisode(l, 1, 2, false, now)
		assert.True(t, p.Started)
		assert.False(t, p.Settled)
		assert.Equal(t, int64(1), l.Episode.Generation)
		assert.Equal(t, p.Context.TraceID().String(), l.TraceID)
	})
	t.Run("same generation, unsettled: same episode", func(t *testing.T) {
		l := &common.Lifecycle{}
		first := planEpisode(l, 1, 1, false, now)
		again := planEpisode(l, 1, 1, true, now.Add(time.Second))
		assert.False(t, again.Started)
		assert.True(t, again.Settled)
		assert.Equal(t, first.Context.TraceID(), again.Context.TraceID())
		assert.True(t, l.Episode.Settled)
	})
	t.Run("a settled episode without transitions stays quiet", func(t *testing.T) {
		l := &common.Lifecycle{}
		planEpisode(l, 1, 1, true, now)
		p := planEpisode(l, 1, 0, true, now)
		assert.False(t, p.Started)
		assert.False(t, p.Settled, "the root was emitted once")
	})
	t.Run("moving again after settling starts a new trace", func(t *testing.T) {
		l := &common.Lifecycle{}
		first := planEpisode(l, 1, 1, true, now)
		p := planEpisode(l, 1, 1, false, now)
		assert.True(t, p.Started)
		assert.Nil(t, p.Superseded, "the old episode had settled")
		assert.NotEqual(t, first.Context.TraceID(), p.Context.TraceID())
	})
	t.Run("a new generation supersedes an unsettled episode", func(t *testing.T) {
		l := &common.Lifecycle{}
		planEpisode(l, 1, 1, false, now)
		p := planEpisode(l, 2, 0, false, now)
		require.NotNil(t, p.Superseded)
		assert.Equal(t, int64(1), p.Superseded.Generation)
	})
	t.Run("a broken traceparent is replaced", func(t *testing.T) {
		l := &common.Lifecycle{Episode: &common.LifecycleEpisode{Generation: 3, TraceParent: "junk"}}
		p := planEpisode(l, 3, 0, false, now)
		assert.True(t, p.Context.IsValid())
		assert.NotEqual(t, "junk", l.Episode.TraceParent)
	})
}

func TestEventReasonIsSpecific(t *testing.T) {
	assert.Equal(t, "RolloutSucceeded", engine.Transition{Trigger: "RolloutSucceeded", Reason: "PredictorAvailable"}.EventReason())
	assert.Equal(t, "RuntimeNotRecognized", engine.Transition{Trigger: "RuntimeMissing", Reason: "RuntimeNotRecognized", Failing: true}.EventReason())
	assert.Equal(t, "AvailabilityLost", engine.Transition{Trigger: "AvailabilityLost", Failing: true}.EventReason())
}

func TestPublishEmitsEventsSpansAndRoot(t *testing.T) {
	fake := events.NewFakeRecorder(10)
	spans := tracetest.NewSpanRecorder()
	tp := tracing.NewProvider("test", spans)
	p := &Publisher{Events: fake, Tracer: tp.Tracer("t"), Kind: "InferenceService", Machine: "inferenceservice"}
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "iris", Namespace: "ns", UID: "u1"}}
	l := &common.Lifecycle{}
	plan := planEpisode(l, 1, 2, true, now)
	records := []engine.Transition{
		{From: "Pending", To: "Deploying", Trigger: "Admitted"},
		{From: "Deploying", To: "Failed", Trigger: "RolloutFailed", Reason: "ProgressDeadlineExceeded", Message: "timed out", Failing: true},
	}
	rec := tracing.NewRecorder("Reconcile InferenceService")
	TransitionSpans(rec, "inferenceservice", records)
	rec.Finish()
	p.Publish(context.Background(), Publication{Object: obj, Records: records, Episode: plan, Spans: rec, DidSomething: true, State: "Failed", Now: now})

	first, second := <-fake.Events, <-fake.Events
	assert.True(t, strings.HasPrefix(first, "Normal Admitted Pending -> Deploying (Admitted) [trace "), first)
	assert.Contains(t, second, "Warning ProgressDeadlineExceeded Deploying -> Failed (RolloutFailed): timed out [trace "+tracing.ShortID(l.TraceID)+"]")

	names := map[string]int{}
	for _, s := range spans.Ended() {
		names[s.Name()]++
		assert.Equal(t, l.TraceID, s.SpanContext().TraceID().String())
	}
	assert.Equal(t, map[string]int{"Reconcile InferenceService": 1, "Transition": 2, "Lifecycle InferenceService": 1}, names)
}

func TestPublishEmitsNoSpanForANoOpReconcile(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := tracing.NewProvider("test", spans)
	p := &Publisher{Tracer: tp.Tracer("t"), Kind: "InferenceService", Machine: "inferenceservice"}
	l := &common.Lifecycle{}
	planEpisode(l, 1, 1, true, now)
	plan := planEpisode(l, 1, 0, true, now)
	rec := tracing.NewRecorder("Reconcile InferenceService")
	rec.Finish()
	p.Publish(context.Background(), Publication{Object: &corev1.ConfigMap{}, Episode: plan, Spans: rec, DidSomething: false, State: "Ready", Now: now})
	assert.Empty(t, spans.Ended())
}
