package predictor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"text/template"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// renderPlaceholders executes the container, serialised as JSON, as a Go
// template over the InferenceService's metadata, so runtime arguments such as
// --model_name={{.Name}} name the InferenceService.
func renderPlaceholders(c corev1.Container, meta metav1.ObjectMeta) (corev1.Container, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return c, err
	}
	tmpl, err := template.New(c.Name).Parse(string(raw))
	if err != nil {
		return c, fmt.Errorf("container %s: %w", c.Name, err)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, meta); err != nil {
		return c, fmt.Errorf("container %s: %w", c.Name, err)
	}
	var out corev1.Container
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		return c, fmt.Errorf("container %s: rendered placeholders are not valid JSON: %w", c.Name, err)
	}
	return out, nil
}
