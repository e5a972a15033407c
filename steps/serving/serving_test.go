package serving

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func deploymentWithImage(image string) *appsv1.Deployment {
	return &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}},
	}}}
}

func TestTraceContextRidesOnlyWithTemplateChanges(t *testing.T) {
	first := deploymentWithImage("a:1")
	StampTemplate(first, nil, "tp-1")
	if first.Spec.Template.Annotations[TraceParentAnnotation] != "tp-1" {
		t.Fatal("a new Deployment carries the current episode's context")
	}
	same := deploymentWithImage("a:1")
	StampTemplate(same, first, "tp-2")
	if got := same.Spec.Template.Annotations[TraceParentAnnotation]; got != "tp-1" {
		t.Fatalf("an unchanged template keeps its context, got %s", got)
	}
	StampTemplate(same, first, "tp-4")
	if got := same.Spec.Template.Annotations[TraceParentAnnotation]; got != "tp-1" {
		t.Fatalf("stamping an already stamped template again changes nothing, got %s", got)
	}
	changed := deploymentWithImage("a:2")
	StampTemplate(changed, first, "tp-3")
	if got := changed.Spec.Template.Annotations[TraceParentAnnotation]; got != "tp-3" {
		t.Fatalf("a changed template takes the new context, got %s", got)
	}
	if first.Annotations != nil {
		t.Fatal("the Deployment's own annotations are untouched: changing them bumps its generation")
	}
}
