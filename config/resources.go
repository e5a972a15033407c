package config

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// ResourceConfig is KServe's cpu/memory quartet. It appears nested under
// "resource" (inferenceService, opentelemetryCollector) and flattened into the
// sidecar keys (agent, logger, batcher, router) by embedding. An empty value
// means "leave this resource unset".
type ResourceConfig struct {
	CPULimit      string `json:"cpuLimit,omitempty"`
	MemoryLimit   string `json:"memoryLimit,omitempty"`
	CPURequest    string `json:"cpuRequest,omitempty"`
	MemoryRequest string `json:"memoryRequest,omitempty"`
}

// Resources converts the quartet into container resources. Values that do not
// parse are skipped rather than panicking: Parse has already rejected them, so
// this only matters for a ResourceConfig built by hand.
func (r ResourceConfig) Resources() corev1.ResourceRequirements {
	out := corev1.ResourceRequirements{}
	put := func(list *corev1.ResourceList, name corev1.ResourceName, value string) {
		if value == "" {
			return
		}
		q, err := resource.ParseQuantity(value)
		if err != nil {
			return
		}
		if *list == nil {
			*list = corev1.ResourceList{}
		}
		(*list)[name] = q
	}
	put(&out.Limits, corev1.ResourceCPU, r.CPULimit)
	put(&out.Limits, corev1.ResourceMemory, r.MemoryLimit)
	put(&out.Requests, corev1.ResourceCPU, r.CPURequest)
	put(&out.Requests, corev1.ResourceMemory, r.MemoryRequest)
	return out
}

// IsZero reports whether no resource is configured.
func (r ResourceConfig) IsZero() bool { return r == (ResourceConfig{}) }

// validate checks each quantity and that no request exceeds its limit, since
// the API server would reject every pod built from such a pair. prefix is the
// JSON path of the quartet ("" when flattened, "resource." when nested).
func (r ResourceConfig) validate(prefix string) *KeyError {
	fields := []struct{ name, value string }{
		{"cpuRequest", r.CPURequest}, {"cpuLimit", r.CPULimit},
		{"memoryRequest", r.MemoryRequest}, {"memoryLimit", r.MemoryLimit},
	}
	for _, f := range fields {
		if ke := checkQuantity(prefix+f.name, f.value); ke != nil {
			return ke
		}
	}
	if ke := checkRequestWithinLimit(prefix, "cpu", r.CPURequest, r.CPULimit); ke != nil {
		return ke
	}
	return checkRequestWithinLimit(prefix, "memory", r.MemoryRequest, r.MemoryLimit)
}

// fillFrom replaces empty fields with def's, for the keys whose components
// cannot run without resources.
func (r *ResourceConfig) fillFrom(def ResourceConfig) {
	orDefault(&r.CPULimit, def.CPULimit)
	orDefault(&r.MemoryLimit, def.MemoryLimit)
	orDefault(&r.CPURequest, def.CPURequest)
	orDefault(&r.MemoryRequest, def.MemoryRequest)
}

// checkQuantity accepts "" (unset) or a non-negative Kubernetes quantity.
func checkQuantity(field, value string) *KeyError {
	if value == "" {
		return nil
	}
	q, err := resource.ParseQuantity(value)
	if err != nil {
		return &KeyError{Field: field,
			Problem: fmt.Sprintf("%q is not a Kubernetes quantity", value),
			Fix:     `use a quantity such as "100m" or "1" for cpu and "128Mi" or "1Gi" for memory`}
	}
	if q.Sign() < 0 {
		return &KeyError{Field: field, Problem: fmt.Sprintf("%q is negative", value),
			Fix: "use zero or a positive quantity"}
	}
	return nil
}

func checkRequestWithinLimit(prefix, kind, request, limit string) *KeyError {
	if request == "" || limit == "" {
		return nil
	}
	req, errReq := resource.ParseQuantity(request)
	lim, errLim := resource.ParseQuantity(limit)
	if errReq != nil || errLim != nil || req.Cmp(lim) <= 0 {
		return nil
	}
	return &KeyError{Field: prefix + kind + "Request",
		Problem: fmt.Sprintf("request %s is greater than limit %s", request, limit),
		Fix:     fmt.Sprintf("lower %sRequest or raise %sLimit so that request <= limit", kind, kind)}
}
