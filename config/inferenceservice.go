package config

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// ExplainersConfig is the `explainers` key.
type ExplainersConfig struct {
	ART ExplainerConfig `json:"art,omitempty"`
}

// ExplainerConfig names an explainer image; the tag comes from the component's
// runtimeVersion or, failing that, DefaultImageVersion.
type ExplainerConfig struct {
	ContainerImage      string `json:"image"`
	DefaultImageVersion string `json:"defaultImageVersion"`
}

// Image returns image:tag for the given runtimeVersion ("" = the default tag).
func (e ExplainerConfig) Image(runtimeVersion string) string {
	tag := runtimeVersion
	if tag == "" {
		tag = e.DefaultImageVersion
	}
	if tag == "" {
		return e.ContainerImage
	}
	return e.ContainerImage + ":" + tag
}

// KServe's code has no ART image of its own; the shipped one is the only
// image that can work.
func defaultExplainers() ExplainersConfig {
	return ExplainersConfig{ART: ExplainerConfig{ContainerImage: "kserve/art-explainer", DefaultImageVersion: "latest"}}
}

// normalize keeps the shipped image when the field is written empty.
func (e *ExplainersConfig) normalize() *KeyError {
	def := defaultExplainers()
	orDefault(&e.ART.ContainerImage, def.ART.ContainerImage)
	return nil
}

// Annotations and labels that never reach child objects whatever the
// ConfigMap says: they steer KServe itself (scale bounds, the internal storage
// URI, the model format) or are client bookkeeping.
var (
	builtinServiceAnnotationDisallowedList = []string{
		"autoscaling.knative.dev/min-scale",
		"autoscaling.knative.dev/max-scale",
		"internal.serving.kserve.io/storage-initializer-sourceuri",
		"kubectl.kubernetes.io/last-applied-configuration",
		"modelFormat",
	}
	builtinServiceLabelDisallowedList = []string{
		"networking.knative.dev/visibility",
	}
)

// InferenceServiceConfig is the `inferenceService` key. The disallowed lists
// always contain the built-ins followed by the configured entries. KServe only
// adds the built-ins when the key is present; we always do, because leaking
// those annotations to children is never intended.
type InferenceServiceConfig struct {
	ServiceAnnotationDisallowedList []string       `json:"serviceAnnotationDisallowedList,omitempty"`
	ServiceLabelDisallowedList      []string       `json:"serviceLabelDisallowedList,omitempty"`
	Resource                        ResourceConfig `json:"resource,omitempty"`
}

// Resources are the defaults for component containers; unset entries stay unset.
func (c InferenceServiceConfig) Resources() corev1.ResourceRequirements {
	return c.Resource.Resources()
}

// IsAnnotationDisallowed reports whether an InferenceService annotation must
// not be copied to child objects.
func (c InferenceServiceConfig) IsAnnotationDisallowed(key string) bool {
	return contains(c.ServiceAnnotationDisallowedList, key)
}

// IsLabelDisallowed reports whether an InferenceService label must not be
// copied to revisions and routes.
func (c InferenceServiceConfig) IsLabelDisallowed(key string) bool {
	return contains(c.ServiceLabelDisallowedList, key)
}

func defaultInferenceService() InferenceServiceConfig {
	return InferenceServiceConfig{
		ServiceAnnotationDisallowedList: append([]string(nil), builtinServiceAnnotationDisallowedList...),
		ServiceLabelDisallowedList:      append([]string(nil), builtinServiceLabelDisallowedList...),
	}
}

// parseInferenceService decodes over an empty value (not the default) so the
// configured lists can be appended to the built-ins instead of replacing them.
func parseInferenceService(raw string, c *Config) *KeyError {
	return decodeInto(KeyInferenceService, raw, &c.InferenceService,
		func() InferenceServiceConfig { return InferenceServiceConfig{} },
		func(v *InferenceServiceConfig) *KeyError {
			v.ServiceAnnotationDisallowedList = mergeUnique(builtinServiceAnnotationDisallowedList, v.ServiceAnnotationDisallowedList)
			v.ServiceLabelDisallowedList = mergeUnique(builtinServiceLabelDisallowedList, v.ServiceLabelDisallowedList)
			return v.Resource.validate("resource.")
		})
}

// MultiNodeConfig is the `multiNode` key.
type MultiNodeConfig struct {
	CustomGPUResourceTypeList []string `json:"customGPUResourceTypeList,omitempty"`
}

// GPU resource names KServe always recognises; NVIDIA MIG slices are matched
// by prefix because their names encode the slice size.
var builtinGPUResourceTypes = []string{"nvidia.com/gpu", "amd.com/gpu", "intel.com/gpu", "habana.ai/gaudi"}

const nvidiaMIGResourcePrefix = "nvidia.com/mig"

// GPUResourceTypes lists the built-in GPU resource names followed by the
// configured ones, without duplicates.
func (m MultiNodeConfig) GPUResourceTypes() []string {
	return mergeUnique(builtinGPUResourceTypes, m.CustomGPUResourceTypeList)
}

// IsKnownGPUResource reports whether a resource name counts as a GPU, which
// decides multi-node parallelism defaults and GPU validation.
func (m MultiNodeConfig) IsKnownGPUResource(name string) bool {
	if strings.HasPrefix(name, nvidiaMIGResourcePrefix) {
		return true
	}
	return contains(m.GPUResourceTypes(), name)
}

// validate rejects names that can never be a resource, so a typo shows up here
// rather than as a GPU request the scheduler silently ignores.
func (m *MultiNodeConfig) validate() *KeyError {
	for i, name := range m.CustomGPUResourceTypeList {
		if errs := validation.IsQualifiedName(name); len(errs) > 0 {
			return &KeyError{Field: fmt.Sprintf("customGPUResourceTypeList[%d]", i),
				Problem: fmt.Sprintf("%q is not a resource name: %s", name, strings.Join(errs, "; ")),
				Fix:     `use an extended resource name such as "example.com/gpu"`}
		}
	}
	return nil
}

// SecurityConfig is the `security` key. An absent field means false, as in
// KServe: serving containers rarely need the API server, so the defaulter turns
// token automounting off unless this is true.
type SecurityConfig struct {
	AutoMountServiceAccountToken bool `json:"autoMountServiceAccountToken"`
}

// ServiceConfig is the `service` key.
type ServiceConfig struct {
	// ServiceClusterIPNone makes Standard-mode component Services headless.
	ServiceClusterIPNone bool `json:"serviceClusterIPNone,omitempty"`
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// mergeUnique returns base followed by the entries of extra not yet present,
// in a new slice.
func mergeUnique(base, extra []string) []string {
	out := make([]string, 0, len(base)+len(extra))
	for _, list := range [][]string{base, extra} {
		for _, v := range list {
			if !contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}
