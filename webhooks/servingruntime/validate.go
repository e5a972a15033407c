package servingruntime

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
)

// NamedSpec is another runtime in scope: a ServingRuntime of the same
// namespace, or a ClusterServingRuntime.
type NamedSpec struct {
	Name string
	Spec *v1alpha1.ServingRuntimeSpec
}

// blockedEnvVar may not be set: it would let a runtime load Python code
// from anywhere into the model server.
const blockedEnvVar = "PYTHONPATH"

var specPath = field.NewPath("spec")

// ValidateRuntime checks the spec of runtime name against the others in
// scope. An entry of others named name is the stored version of this
// runtime (an update); it is used for the rules about what may change and
// is skipped by the priority rules. A disabled runtime is always valid: it
// is never selected, and enabling it is an update that is checked then. A
// nil cfg means the built-in configuration.
func ValidateRuntime(spec *v1alpha1.ServingRuntimeSpec, name string, others []NamedSpec, cfg *config.Config) field.ErrorList {
	if spec.IsDisabled() {
		return nil
	}
	if cfg == nil {
		cfg = config.Default()
	}
	var previous *v1alpha1.ServingRuntimeSpec
	for _, o := range others {
		if o.Name == name {
			previous = o.Spec
		}
	}
	errs := validatePriorityConsistency(spec)
	errs = append(errs, validatePriorityConflicts(spec, name, others)...)
	errs = append(errs, validateWorkerSpec(spec, previous, cfg)...)
	errs = append(errs, validateBlockedEnv(spec)...)
	return errs
}

// validatePriorityConsistency: inside one runtime, the auto-selectable
// entries of a model format carry one priority, because selection reads a
// single priority per format.
func validatePriorityConsistency(spec *v1alpha1.ServingRuntimeSpec) field.ErrorList {
	var errs field.ErrorList
	first := map[string]int{}
	formats := spec.SupportedModelFormats
	for j := range formats {
		f := &formats[j]
		if !f.IsAutoSelectEnabled() || f.Priority == nil {
			continue
		}
		key := strings.ToLower(f.Name)
		i, seen := first[key]
		if !seen {
			first[key] = j
			continue
		}
		if *formats[i].Priority != *f.Priority {
			errs = append(errs, field.Invalid(priorityPath(j), *f.Priority, fmt.Sprintf(
				"different priorities assigned for the model format %s in this runtime (supportedModelFormats[%d] has %d); give every auto-selectable %s entry the same priority",
				f.Name, i, *formats[i].Priority, f.Name)))
		}
	}
	return errs
}

// validatePriorityConflicts: two runtimes that could both be auto-selected
// for the same model format and version (same multiModel flag, a protocol
// in common, not disabled) must not share a priority, or the choice between
// them would be arbitrary.
func validatePriorityConflicts(spec *v1alpha1.ServingRuntimeSpec, name string, others []NamedSpec) field.ErrorList {
	var errs field.ErrorList
	for _, o := range others {
		if o.Name == name || o.Spec == nil || o.Spec.IsDisabled() ||
			o.Spec.IsMultiModelRuntime() != spec.IsMultiModelRuntime() || !shareProtocol(spec, o.Spec) {
			continue
		}
		for j := range spec.SupportedModelFormats {
			f := &spec.SupportedModelFormats[j]
			if g := conflictingFormat(f, o.Spec.SupportedModelFormats); g != nil {
				errs = append(errs, field.Invalid(priorityPath(j), *f.Priority, fmt.Sprintf(
					"same priority assigned for the model format %s%s in the runtimes %s and %s, so neither would be preferred; give one of them a different priority",
					f.Name, versionText(f.Version), o.Name, name)))
			}
		}
	}
	return errs
}

// conflictingFormat returns the entry of others that f ties with: both
// auto-selectable, same name (any letter case) and version, same priority.
func conflictingFormat(f *v1alpha1.SupportedModelFormat, others []v1alpha1.SupportedModelFormat) *v1alpha1.SupportedModelFormat {
	if !f.IsAutoSelectEnabled() || f.Priority == nil {
		return nil
	}
	for k := range others {
		g := &others[k]
		if g.IsAutoSelectEnabled() && g.Priority != nil && *g.Priority == *f.Priority &&
			strings.EqualFold(g.Name, f.Name) && sameVersion(f.Version, g.Version) {
			return g
		}
	}
	return nil
}

// shareProtocol reports whether the runtimes list a protocol in common. As
// in KServe, a runtime that lists none is not compared.
func shareProtocol(a, b *v1alpha1.ServingRuntimeSpec) bool {
	for _, p := range a.ProtocolVersions {
		for _, q := range b.ProtocolVersions {
			if p == q {
				return true
			}
		}
	}
	return false
}

func sameVersion(a, b *string) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

func versionText(v *string) string {
	if v == nil {
		return ""
	}
	return " (version " + *v + ")"
}

func priorityPath(j int) *field.Path {
	return specPath.Child("supportedModelFormats").Index(j).Child("priority")
}
