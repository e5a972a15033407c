package runner

import (
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// traceIDOf reads .status.lifecycle.traceID: the trace of the object's
// current lifecycle episode.
func traceIDOf(obj *unstructured.Unstructured) string {
	id, _, _ := unstructured.NestedString(obj.Object, "status", "lifecycle", "traceID")
	return id
}

// spanNamesInTrace lists the names of the spans of one trace, in the order
// they ended, each once.
func spanNamesInTrace(spans []sdktrace.ReadOnlySpan, traceID string) []string {
	var names []string
	seen := map[string]bool{}
	for _, s := range spans {
		if s.SpanContext().TraceID().String() != traceID || seen[s.Name()] {
			continue
		}
		seen[s.Name()] = true
		names = append(names, s.Name())
	}
	return names
}
