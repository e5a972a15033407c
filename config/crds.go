package config

import (
	"embed"
	"fmt"
	"path"
)

// The generated CRDs, embedded so the binary can install them (fsmserve dev,
// scenario runs against a fresh API server) without a checkout.
//
//go:embed crd/bases/*.yaml
var crdFS embed.FS

// CRDs returns every generated CustomResourceDefinition, one YAML document per
// file, in file-name order.
func CRDs() ([][]byte, error) {
	entries, err := crdFS.ReadDir("crd/bases")
	if err != nil {
		return nil, fmt.Errorf("reading embedded CRDs: %w", err)
	}
	var out [][]byte
	for _, e := range entries {
		if path.Ext(e.Name()) != ".yaml" {
			continue
		}
		b, err := crdFS.ReadFile(path.Join("crd/bases", e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// InstallManifests is everything a fresh cluster needs before fsmserve runs:
// the CRDs, then the default storage container, configuration and runtimes.
func InstallManifests() ([][]byte, error) {
	crds, err := CRDs()
	if err != nil {
		return nil, err
	}
	rest, err := DefaultManifests()
	if err != nil {
		return nil, err
	}
	return append(crds, rest...), nil
}
