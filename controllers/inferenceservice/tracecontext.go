package inferenceservice

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
)

const (
	// TraceParentAnnotation on the predictor's pods carries the trace context
	// of the episode that rolled them out, so a model server can continue it.
	TraceParentAnnotation = "fsmserve.io/traceparent"
	// TemplateHashAnnotation fingerprints the pod template fsmserve built.
	TemplateHashAnnotation = "fsmserve.io/template-hash"
)

// stampTraceContext gives the pod template the current episode's trace context
// only when the template itself changes. A Deployment rolls its pods on any
// template change (and bumps its generation on any annotation change), so the
// context rides along with rollouts that happen anyway and an unchanged
// template keeps the context it was rolled out with.
func stampTraceContext(desired, live *appsv1.Deployment, traceParent string) {
	unstamped := desired.Spec.Template.DeepCopy()
	delete(unstamped.Annotations, TemplateHashAnnotation)
	delete(unstamped.Annotations, TraceParentAnnotation)
	raw, err := json.Marshal(unstamped)
	if err != nil {
		return
	}
	sum := sha256.Sum256(raw)
	hash := hex.EncodeToString(sum[:8])
	ann := desired.Spec.Template.Annotations
	if live != nil && live.Spec.Template.Annotations[TemplateHashAnnotation] == hash {
		if previous, ok := live.Spec.Template.Annotations[TraceParentAnnotation]; ok {
			traceParent = previous
		}
	}
	ann[TemplateHashAnnotation] = hash
	ann[TraceParentAnnotation] = traceParent
}
