package config

import (
	"embed"
	"fmt"
	"path"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// The manifests fsmserve installs by default live beside this file so that
// kustomize, Helm and the binary all read the same YAML.
//
//go:embed storagecontainers/*.yaml configmap/*.yaml runtimes/*.yaml
var manifestFS embed.FS

// manifestDirs is the install order: storage containers and the ConfigMap come
// before the runtimes so that a runtime is never selected while the objects it
// depends on are still missing.
var manifestDirs = []string{"storagecontainers", "configmap", "runtimes"}

// shippedConfigMapPath is the ConfigMap manifest inside manifestFS.
const shippedConfigMapPath = "configmap/inferenceservice.yaml"

// DefaultManifests returns one YAML document per file, storage containers
// first, then the ConfigMap, then the runtimes, each directory in file-name
// order.
func DefaultManifests() ([][]byte, error) {
	var out [][]byte
	for _, dir := range manifestDirs {
		entries, err := manifestFS.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("reading embedded %s: %w", dir, err)
		}
		for _, e := range entries {
			if e.IsDir() || path.Ext(e.Name()) != ".yaml" {
				continue
			}
			b, err := manifestFS.ReadFile(path.Join(dir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("reading embedded %s/%s: %w", dir, e.Name(), err)
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// DefaultConfigMap decodes the shipped inferenceservice-config. Its namespace
// is the one written in the file ("kserve"); callers installing elsewhere set
// SystemNamespace() themselves.
func DefaultConfigMap() (*corev1.ConfigMap, error) {
	b, err := manifestFS.ReadFile(shippedConfigMapPath)
	if err != nil {
		return nil, fmt.Errorf("reading embedded %s: %w", shippedConfigMapPath, err)
	}
	cm := &corev1.ConfigMap{}
	if err := yaml.UnmarshalStrict(b, cm); err != nil {
		return nil, fmt.Errorf("decoding embedded %s: %w", shippedConfigMapPath, err)
	}
	return cm, nil
}
