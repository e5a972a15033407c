// Package serving applies the children a serving workload runs as (a
// predictor, a graph router): a Service in front of a Deployment, and an
// autoscaler when it has one. Both kinds build their children elsewhere
// (steps/predictor, steps/graph) and apply them here, the same way.
package serving

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/steps/apply"
)

const (
	// TemplateHashAnnotation fingerprints the pod template fsmserve built:
	// it tells whether the Deployment runs the current template, and when
	// the trace context may change.
	TemplateHashAnnotation = "fsmserve.io/template-hash"
	// TraceParentAnnotation on the pods carries the trace context of the
	// episode that rolled them out, so the server can continue it.
	TraceParentAnnotation = "fsmserve.io/traceparent"
)

// Children are a serving workload's objects; nil is absent.
type Children struct {
	Deployment *appsv1.Deployment
	Service    *corev1.Service
	// HPA is nil unless the autoscaler class is hpa.
	HPA *autoscalingv2.HorizontalPodAutoscaler
}

// Present lists the children that exist, autoscaler first: the order to
// delete them in, so nothing scales a Deployment that is going away.
func (c Children) Present() []client.Object {
	return apply.Present(c.HPA, c.Deployment, c.Service)
}

// Ensure applies desired over observed: the Service first (so the address
// exists when the pods do), then the Deployment, then the autoscaler, or
// deletes the observed autoscaler when none is desired. It returns the
// children as they now are, and whether anything changed.
func Ensure(ctx context.Context, a apply.Applier, desired, observed Children) (Children, bool, error) {
	now, changed := observed, false
	apply := func(want, have client.Object) error {
		res, err := a.Apply(ctx, want, have)
		changed = changed || res.Changed
		return err
	}
	if err := apply(desired.Service, observed.Service); err != nil {
		return now, changed, err
	}
	now.Service = desired.Service
	if err := apply(desired.Deployment, observed.Deployment); err != nil {
		return now, changed, err
	}
	now.Deployment = desired.Deployment
	switch {
	case desired.HPA != nil:
		if err := apply(desired.HPA, observed.HPA); err != nil {
			return now, changed, err
		}
		now.HPA = desired.HPA
	case observed.HPA != nil:
		if _, err := a.Delete(ctx, observed.HPA); err != nil {
			return now, changed, err
		}
		now.HPA, changed = nil, true
	}
	return now, changed, nil
}

// TemplateHash fingerprints a pod template, leaving out the two
// annotations stamped from it.
func TemplateHash(t *corev1.PodTemplateSpec) string {
	unstamped := t.DeepCopy()
	delete(unstamped.Annotations, TemplateHashAnnotation)
	delete(unstamped.Annotations, TraceParentAnnotation)
	raw, err := json.Marshal(unstamped)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:8])
}

// StampTemplate writes the template's hash and the trace context into
// desired's pod template. The context changes only with the template: a
// Deployment rolls its pods on any template change (and bumps its
// generation on any annotation change), so the context rides along with
// rollouts that happen anyway and an unchanged template keeps the context
// it was rolled out with.
func StampTemplate(desired, live *appsv1.Deployment, traceParent string) {
	hash := TemplateHash(&desired.Spec.Template)
	if live != nil && live.Spec.Template.Annotations[TemplateHashAnnotation] == hash {
		if previous, ok := live.Spec.Template.Annotations[TraceParentAnnotation]; ok {
			traceParent = previous
		}
	}
	if desired.Spec.Template.Annotations == nil {
		desired.Spec.Template.Annotations = map[string]string{}
	}
	desired.Spec.Template.Annotations[TemplateHashAnnotation] = hash
	desired.Spec.Template.Annotations[TraceParentAnnotation] = traceParent
}

// Observe reads the children named name in ns (nil when absent).
func Observe(ctx context.Context, c client.Reader, ns, name string) (Children, error) {
	var ch Children
	var err error
	if ch.Deployment, err = apply.GetOptional(ctx, c, ns, name, &appsv1.Deployment{}); err != nil {
		return ch, err
	}
	if ch.Service, err = apply.GetOptional(ctx, c, ns, name, &corev1.Service{}); err != nil {
		return ch, err
	}
	ch.HPA, err = apply.GetOptional(ctx, c, ns, name, &autoscalingv2.HorizontalPodAutoscaler{})
	return ch, err
}

// KeepOwn sets aside the children the applier's parent does not control
// (they are never applied over or deleted) and returns the first as a
// *apply.NotOwnedError.
func (c *Children) KeepOwn(a apply.Applier) error {
	var foreign error
	own := func(obj client.Object) bool {
		err := a.Check(obj)
		if err != nil && foreign == nil {
			foreign = err
		}
		return err == nil
	}
	if !own(c.Deployment) {
		c.Deployment = nil
	}
	if !own(c.Service) {
		c.Service = nil
	}
	if !own(c.HPA) {
		c.HPA = nil
	}
	return foreign
}
