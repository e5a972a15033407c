package runner

import (
	"encoding/json"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// splitYAMLDocuments turns the text of an apply step into JSON documents.
func splitYAMLDocuments(text string) ([]json.RawMessage, error) {
	docs, err := readYAMLDocuments([]byte(text))
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(docs))
	for i, doc := range docs {
		js, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		out = append(out, js)
	}
	return out, nil
}

// checkManifest refuses a document that cannot be applied: not a mapping, or
// without apiVersion, kind or metadata.name (server-side apply needs a name).
func checkManifest(doc json.RawMessage) error {
	if jsonKind(doc) != "a mapping" {
		return fmt.Errorf("an object is a mapping, got %s", jsonKind(doc))
	}
	u, err := toUnstructured(doc)
	if err != nil {
		return err
	}
	switch {
	case u.GetAPIVersion() == "":
		return errors.New("apiVersion is required")
	case u.GetKind() == "":
		return errors.New("kind is required")
	case u.GetName() == "":
		return fmt.Errorf("%s: metadata.name is required (generateName cannot be applied or referred to by later steps)", u.GetKind())
	}
	return nil
}

// toUnstructured decodes one JSON document into an object.
func toUnstructured(doc json.RawMessage) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(doc); err != nil {
		return nil, err
	}
	return u, nil
}
