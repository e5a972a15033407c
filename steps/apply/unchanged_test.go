package apply

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestCovers(t *testing.T) {
	cases := []struct {
		name       string
		live, want any
		covered    bool
	}{
		{"equal scalars", "a", "a", true},
		{"different scalars", int64(1), int64(2), false},
		{"live has more keys", map[string]any{"a": "1", "b": "2"}, map[string]any{"a": "1"}, true},
		{"a wanted key is missing", map[string]any{"b": "2"}, map[string]any{"a": "1"}, false},
		{"an empty wanted map is covered by none", map[string]any{}, map[string]any{"labels": map[string]any{}}, true},
		{"nested difference", map[string]any{"a": map[string]any{"b": "1"}}, map[string]any{"a": map[string]any{"b": "2"}}, false},
		{"lists element by element, defaults inside", []any{map[string]any{"port": int64(80), "protocol": "TCP"}}, []any{map[string]any{"port": int64(80)}}, true},
		{"a list of another length", []any{"a", "b"}, []any{"a"}, false},
		{"list order counts", []any{"b", "a"}, []any{"a", "b"}, false},
		{"a zero value is still a value", map[string]any{}, map[string]any{"replicas": int64(0)}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := covers(c.live, c.want); got != c.covered {
				t.Errorf("covers = %v, want %v", got, c.covered)
			}
		})
	}
}

func request(t *testing.T, d *appsv1.Deployment) *unstructured.Unstructured {
	t.Helper()
	s := runtime.NewScheme()
	_ = appsv1.AddToScheme(s)
	u, err := stamp(s, d.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestUnchanged(t *testing.T) {
	desired := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "x-predictor", Namespace: "ns", Labels: map[string]string{"app": "x"}},
		Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "kserve-container", Image: "sklearn:1", Env: []corev1.EnvVar{{Name: "A", Value: "1"}}}}}}}}
	applied := func(d *appsv1.Deployment) *appsv1.Deployment {
		live := d.DeepCopy()
		live.Annotations = map[string]string{FingerprintAnnotation: request(t, d).GetAnnotations()[FingerprintAnnotation]}
		live.ResourceVersion, live.Generation = "7", 3
		live.Spec.Template.Spec.Containers[0].TerminationMessagePath = "/dev/termination-log" // a server default
		live.Status.Replicas = 1
		return live
	}
	removed := desired.DeepCopy()
	removed.Spec.Template.Spec.Containers[0].Env = nil
	edited := applied(desired)
	edited.Spec.Template.Spec.Containers[0].Image = "sklearn:hand-edited"
	cases := []struct {
		name     string
		observed *appsv1.Deployment
		desired  *appsv1.Deployment
		same     bool
	}{
		{"as last applied, with server defaults and status", applied(desired), desired, true},
		{"absent", nil, desired, false},
		{"never fingerprinted", desired.DeepCopy(), desired, false},
		{"a field fsmserve stopped setting: the live object still has it", applied(desired), removed, false},
		{"someone edited a field fsmserve sets", edited, desired, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Unchanged(c.observed, request(t, c.desired))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.same {
				t.Errorf("Unchanged = %v, want %v", got, c.same)
			}
		})
	}
}

// Stamping an object already stamped gives the same digest: the digest
// leaves itself out.
func TestStampIsStable(t *testing.T) {
	s := runtime.NewScheme()
	_ = appsv1.AddToScheme(s)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "ns"}}
	if _, err := stamp(s, d); err != nil {
		t.Fatal(err)
	}
	first := d.Annotations[FingerprintAnnotation]
	if _, err := stamp(s, d); err != nil {
		t.Fatal(err)
	}
	if first == "" || d.Annotations[FingerprintAnnotation] != first {
		t.Errorf("digest moved from %q to %q", first, d.Annotations[FingerprintAnnotation])
	}
	d.Spec.Paused = true
	if _, err := stamp(s, d); err != nil {
		t.Fatal(err)
	}
	if d.Annotations[FingerprintAnnotation] == first {
		t.Error("a spec change kept the digest")
	}
}
