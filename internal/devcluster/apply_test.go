package devcluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeManifests(t *testing.T) {
	docs := [][]byte{
		[]byte(`# leading comment
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: ns1
---
---
# only a comment
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata: {name: ns1}
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: widgets.example.com}
`),
		[]byte(`{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}`),
	}
	objs, err := decodeManifests(docs)
	require.NoError(t, err)
	var got []string
	for _, o := range objs {
		got = append(got, o.GetKind()+"/"+o.GetName())
	}
	assert.Equal(t, []string{"ConfigMap/a", "Namespace/ns1", "CustomResourceDefinition/widgets.example.com", "Widget/w"}, got)

	first, rest := splitFirst(objs)
	assert.Equal(t, "Namespace", first[0].GetKind())
	assert.Equal(t, "CustomResourceDefinition", first[1].GetKind())
	assert.Len(t, first, 2)
	assert.Equal(t, "ConfigMap", rest[0].GetKind())
	assert.Equal(t, "Widget", rest[1].GetKind())
}

func TestDecodeManifestsErrors(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		wantErr string
	}{
		{"no kind", "apiVersion: v1\nmetadata: {name: a}\n", "manifest 1, document 1"},
		{"no name", "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n", "ConfigMap has no metadata.name"},
		{"bad yaml in second document", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n: : :\n", "document 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeManifests([][]byte{[]byte(tt.doc)})
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
}
