package runtime

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// Resolve chooses the runtime for req among the namespaced and cluster
// runtimes, or says why none can be used.
func Resolve(req Request, namespaced, cluster []Runtime) (Runtime, *Failure) {
	if req.Runtime != "" {
		return explicit(req, namespaced, cluster)
	}
	return autoSelect(req, namespaced, cluster)
}

func explicit(req Request, namespaced, cluster []Runtime) (Runtime, *Failure) {
	rt, found := byName(req.Runtime, namespaced)
	if !found {
		rt, found = byName(req.Runtime, cluster)
	}
	switch {
	case !found:
		return Runtime{}, &Failure{Reason: ReasonRuntimeNotRecognized, Message: "Waiting for runtime to become available",
			Detail: fmt.Sprintf("no ServingRuntime or ClusterServingRuntime named %q; create it, or remove spec.predictor.model.runtime to select one by model format", req.Runtime)}
	case rt.Spec.IsDisabled():
		return Runtime{}, &Failure{Reason: ReasonRuntimeDisabled, Message: "Specified runtime is disabled",
			Detail: fmt.Sprintf("runtime %q is disabled; enable it (spec.disabled: false) or choose another runtime", req.Runtime)}
	case req.Protocol != "" && !rt.Spec.SupportsProtocol(v1alpha1.InferenceServiceProtocol(req.Protocol)):
		return Runtime{}, &Failure{Reason: ReasonNoSupportingRuntime, Message: "Specified runtime does not support specified protocol version",
			Detail: fmt.Sprintf("runtime %q does not support protocol %s (it supports %s); change spec.predictor.model.protocolVersion or the runtime", req.Runtime, req.Protocol, protocols(rt.Spec))}
	case !supportsFormat(rt.Spec, req, false):
		return Runtime{}, &Failure{Reason: ReasonNoSupportingRuntime, Message: "Specified runtime does not support specified framework/version",
			Detail: fmt.Sprintf("runtime %q does not list model format %s; change spec.predictor.model.modelFormat or the runtime", req.Runtime, formatLabel(req))}
	}
	return rt, nil
}

func autoSelect(req Request, namespaced, cluster []Runtime) (Runtime, *Failure) {
	candidates := append(candidates(req, namespaced), candidates(req, cluster)...)
	if len(candidates) == 0 {
		return Runtime{}, &Failure{Reason: ReasonNoSupportingRuntime, Message: "No runtime found to support specified framework/version",
			Detail: fmt.Sprintf("no enabled runtime with autoSelect supports model format %s with protocol %s; create one, or set spec.predictor.model.runtime", formatLabel(req), orV1(req.Protocol))}
	}
	return candidates[0], nil
}

// candidates filters one list and orders it: by the runtime's most preferred
// protocol, newest first, then by name; then, stably, by the format's priority.
func candidates(req Request, list []Runtime) []Runtime {
	sorted := append([]Runtime(nil), list...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if pa, pb := protocolRank(a.Spec), protocolRank(b.Spec); pa != pb {
			return pa < pb
		}
		if !a.Created.Equal(&b.Created) {
			return b.Created.Before(&a.Created)
		}
		return a.Name < b.Name
	})
	var out []Runtime
	for _, rt := range sorted {
		if eligible(req, rt.Spec) {
			out = append(out, rt)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := out[i].Spec.GetPriority(req.Format), out[j].Spec.GetPriority(req.Format)
		switch {
		case pi != nil && pj != nil:
			return *pi > *pj
		default:
			return pi != nil && pj == nil
		}
	})
	return out
}

func eligible(req Request, spec *v1alpha1.ServingRuntimeSpec) bool {
	return !spec.IsDisabled() && !spec.IsMultiModelRuntime() &&
		spec.IsMultiNodeRuntime() == req.MultiNode &&
		spec.SupportsProtocol(v1alpha1.InferenceServiceProtocol(orV1(req.Protocol))) &&
		supportsFormat(spec, req, true)
}

// supportsFormat matches the model's format labels (mt:name, mt:name:version)
// against the runtime's entries; auto-selection only counts autoSelect entries.
// A versioned model needs an entry with exactly that version; an unversioned
// one matches any entry of that name.
func supportsFormat(spec *v1alpha1.ServingRuntimeSpec, req Request, autoSelectOnly bool) bool {
	for _, f := range spec.SupportedModelFormats {
		if autoSelectOnly && !f.IsAutoSelectEnabled() {
			continue
		}
		if f.Name != req.Format {
			continue
		}
		if req.Version == "" || (f.Version != nil && *f.Version == req.Version) {
			return true
		}
	}
	return false
}

var protocolRanks = map[v1alpha1.InferenceServiceProtocol]int{"v1": 1, "v2": 2, "grpc-v1": 3, "grpc-v2": 4}

// protocolRank is the rank of the runtime's most preferred protocol; a runtime
// listing none sorts last.
func protocolRank(spec *v1alpha1.ServingRuntimeSpec) int {
	best := 5
	for _, p := range spec.ProtocolVersions {
		if r, ok := protocolRanks[p]; ok && r < best {
			best = r
		}
	}
	return best
}

// DefaultProtocol is the protocol a predictor without protocolVersion speaks
// on this runtime: its most preferred one, or "" when it lists none.
func DefaultProtocol(spec *v1alpha1.ServingRuntimeSpec) string {
	best, rank := "", 5
	for _, p := range spec.ProtocolVersions {
		if r, ok := protocolRanks[p]; ok && r < rank {
			best, rank = string(p), r
		}
	}
	return best
}

func byName(name string, list []Runtime) (Runtime, bool) {
	for _, rt := range list {
		if rt.Name == name {
			return rt, true
		}
	}
	return Runtime{}, false
}

func formatLabel(req Request) string {
	if req.Version != "" {
		return req.Format + ":" + req.Version
	}
	return req.Format
}

func protocols(spec *v1alpha1.ServingRuntimeSpec) string {
	if len(spec.ProtocolVersions) == 0 {
		return "any protocol"
	}
	parts := make([]string, len(spec.ProtocolVersions))
	for i, p := range spec.ProtocolVersions {
		parts[i] = string(p)
	}
	return strings.Join(parts, ", ")
}

func orV1(p string) string {
	if p == "" {
		return "v1"
	}
	return p
}
