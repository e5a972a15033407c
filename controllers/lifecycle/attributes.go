package lifecycle

import (
	"go.opentelemetry.io/otel/attribute"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/engine"
)

// ObjectAttributes identifies an object on a span; identity lives in
// attributes so span names stay low-cardinality.
func ObjectAttributes(obj runtime.Object) []attribute.KeyValue {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	return []attribute.KeyValue{
		attribute.String("k8s.namespace.name", m.GetNamespace()),
		attribute.String("k8s.object.name", m.GetName()),
		attribute.String("k8s.object.uid", string(m.GetUID())),
	}
}

// TransitionSpans adds one zero-length Transition span per record to the
// reconcile's recorder, in journal order.
func TransitionSpans(rec *tracing.Recorder, machine string, records []engine.Transition) {
	for _, r := range records {
		end := rec.Start("Transition",
			attribute.String("sm.machine", machine), attribute.String("sm.from", r.From),
			attribute.String("sm.to", r.To), attribute.String("sm.trigger", r.Trigger),
			attribute.String("sm.reason", r.Reason))
		end(nil)
	}
}
