package v1beta1

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestPodSpecHasEveryCorePodSpecField keeps PodSpec in step with the
// corev1.PodSpec of the k8s.io/api version in go.mod: same JSON names, same
// types, and optional containers.
func TestPodSpecHasEveryCorePodSpecField(t *testing.T) {
	ours := jsonFields(reflect.TypeOf(PodSpec{}))
	core := jsonFields(reflect.TypeOf(corev1.PodSpec{}))
	for name, coreField := range core {
		field, ok := ours[name]
		if !ok {
			t.Errorf("PodSpec lacks %q (corev1.PodSpec.%s)", name, coreField.Name)
			continue
		}
		if field.Type != coreField.Type {
			t.Errorf("PodSpec %q is %v, corev1.PodSpec has %v", name, field.Type, coreField.Type)
		}
		if !strings.Contains(field.Tag.Get("json"), ",omitempty") {
			t.Errorf("PodSpec %q is not omitempty", name)
		}
	}
	for name := range ours {
		if _, ok := core[name]; !ok {
			t.Errorf("PodSpec has %q, which corev1.PodSpec does not", name)
		}
	}
}

func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out[name] = f
	}
	return out
}
