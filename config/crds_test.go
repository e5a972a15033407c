package config

import (
	"strings"
	"testing"
)

func TestCRDsAreEmbedded(t *testing.T) {
	crds, err := CRDs()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, c := range crds {
		if strings.Contains(string(c), "name: inferenceservices.serving.kserve.io") {
			found = true
		}
	}
	if len(crds) < 9 || !found {
		t.Fatalf("expected the generated CRDs, got %d documents (inferenceservices found: %v)", len(crds), found)
	}
	all, err := InstallManifests()
	if err != nil || len(all) <= len(crds) {
		t.Fatalf("install manifests: %d documents, %v", len(all), err)
	}
}
