package inferenceservice

import (
	"encoding/json"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/config"
)

// basicResources are the resources that are never GPUs.
var basicResources = map[corev1.ResourceName]bool{
	corev1.ResourceCPU: true, corev1.ResourceMemory: true,
	corev1.ResourceStorage: true, corev1.ResourceEphemeralStorage: true,
}

// ParseGPUResourceTypes reads the serving.kserve.io/gpu-resource-types
// annotation: a non-empty JSON list of non-empty resource names. An absent
// (empty) annotation yields no names and no error.
func ParseGPUResourceTypes(annotation string) ([]string, error) {
	if annotation == "" {
		return nil, nil
	}
	var names []string
	if err := json.Unmarshal([]byte(annotation), &names); err != nil || len(names) == 0 {
		return nil, fmt.Errorf(`must be a non-empty JSON list of resource names, e.g. ["example.com/gpu"]`)
	}
	for _, n := range names {
		if n == "" {
			return nil, fmt.Errorf("must not contain an empty resource name")
		}
	}
	return names, nil
}

// UnknownGPUResources returns, sorted, the resources of r that are neither
// cpu, memory, storage or ephemeral-storage nor a GPU type the configuration
// (multiNode.customGPUResourceTypeList and the built-ins) or extra names.
// Multi-node serving sizes tensor parallelism from GPU resources, so an
// unrecognised accelerator would be scheduled but never used.
func UnknownGPUResources(r corev1.ResourceRequirements, mn config.MultiNodeConfig, extra []string) []corev1.ResourceName {
	seen := map[corev1.ResourceName]bool{}
	for _, list := range []corev1.ResourceList{r.Limits, r.Requests} {
		for name := range list {
			if basicResources[name] || mn.IsKnownGPUResource(string(name)) || contains(extra, string(name)) {
				continue
			}
			seen[name] = true
		}
	}
	out := make([]corev1.ResourceName, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
