// Package crdpatch adjusts the CRDs that controller-gen writes where KServe's
// published schema differs from what Go markers can express, so that every
// manifest KServe accepts is accepted here too. It fails when a path it
// expects is missing, so a change of the Go types cannot silently turn a
// rule off. cmd/crdpatch applies it to files in place.
//
// Rules, all on the InferenceService CRD (KServe applies the same with yq):
//   - the objects directly under a component (predictor, explainer,
//     transformer, and each canary's predictor) lose their required lists:
//     the framework shorthands, model and art inline a corev1.Container whose
//     name is required in Go but set by the defaulter;
//   - liveness and readiness probes of those objects and of the components'
//     containers lose the required port of httpGet and tcpSocket, because
//     Knative fills the port in and rejects one set by the user.
package crdpatch

import (
	"bytes"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"
)

// PatchFile applies Patch to the CRD in the YAML file at path, in place.
func PatchFile(path string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var crd map[string]any
	if err := yaml.Unmarshal(in, &crd); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := Patch(crd); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	out, err := yaml.Marshal(crd)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if bytes.HasPrefix(in, []byte("---\n")) {
		out = append([]byte("---\n"), out...)
	}
	return os.WriteFile(path, out, 0o644)
}

// Patch applies the rules to one CRD, given as generic JSON; CRDs without
// rules are left alone. Patching twice changes nothing more.
func Patch(crd map[string]any) error {
	name, _ := lookup(crd, "metadata", "name").(string)
	if name != "inferenceservices.serving.kserve.io" {
		return nil
	}
	versions, _ := lookup(crd, "spec", "versions").([]any)
	if len(versions) == 0 {
		return fmt.Errorf("%s: no versions", name)
	}
	for _, v := range versions {
		spec, ok := lookup(v, "schema", "openAPIV3Schema", "properties", "spec").(map[string]any)
		if !ok {
			return fmt.Errorf("%s: no spec schema", name)
		}
		if err := patchInferenceServiceSpec(spec); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func patchInferenceServiceSpec(spec map[string]any) error {
	components := map[string]any{
		"predictor":          lookup(spec, "properties", "predictor"),
		"explainer":          lookup(spec, "properties", "explainer"),
		"transformer":        lookup(spec, "properties", "transformer"),
		"canary[].predictor": lookup(spec, "properties", "canary", "items", "properties", "predictor"),
	}
	for path, c := range components {
		props, ok := lookup(c, "properties").(map[string]any)
		if !ok {
			return fmt.Errorf("spec.%s: no properties", path)
		}
		for _, p := range props {
			field, ok := p.(map[string]any)
			if !ok {
				continue
			}
			delete(field, "required")
			relaxProbes(field)
		}
		containers, ok := lookup(props, "containers", "items").(map[string]any)
		if !ok {
			return fmt.Errorf("spec.%s.containers: no items", path)
		}
		relaxProbes(containers)
	}
	if _, ok := lookup(components["predictor"], "properties", "sklearn", "properties", "livenessProbe").(map[string]any); !ok {
		return fmt.Errorf("spec.predictor.sklearn.livenessProbe: not found")
	}
	return nil
}

// relaxProbes drops the required port of the httpGet and tcpSocket handlers
// of the liveness and readiness probes of a container schema.
func relaxProbes(container map[string]any) {
	for _, probe := range []string{"livenessProbe", "readinessProbe"} {
		for _, handler := range []string{"httpGet", "tcpSocket"} {
			if h, ok := lookup(container, "properties", probe, "properties", handler).(map[string]any); ok {
				delete(h, "required")
			}
		}
	}
}

// lookup walks nested maps along keys and returns what it finds, or nil.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
