package v1alpha1

// IsDisabled reports whether the runtime is taken out of use.
func (s *ServingRuntimeSpec) IsDisabled() bool {
	return s.Disabled != nil && *s.Disabled
}

// IsMultiModelRuntime reports whether the runtime loads many models (ModelMesh).
func (s *ServingRuntimeSpec) IsMultiModelRuntime() bool {
	return s.MultiModel != nil && *s.MultiModel
}

// IsMultiNodeRuntime reports whether the runtime has workers.
func (s *ServingRuntimeSpec) IsMultiNodeRuntime() bool {
	return s.WorkerSpec != nil
}

// SupportsProtocol reports whether the runtime speaks protocol p. A runtime
// that lists no protocols, or an empty p, matches anything.
func (s *ServingRuntimeSpec) SupportsProtocol(p InferenceServiceProtocol) bool {
	if p == "" || len(s.ProtocolVersions) == 0 {
		return true
	}
	for _, v := range s.ProtocolVersions {
		if v == p {
			return true
		}
	}
	return false
}

// GetPriority returns the priority the runtime gives the named format, or
// nil when the format is absent or has no priority.
func (s *ServingRuntimeSpec) GetPriority(format string) *int32 {
	for i := range s.SupportedModelFormats {
		if s.SupportedModelFormats[i].Name == format {
			return s.SupportedModelFormats[i].Priority
		}
	}
	return nil
}

// IsAutoSelectEnabled reports whether the runtime may be chosen automatically
// for this format.
func (f *SupportedModelFormat) IsAutoSelectEnabled() bool {
	return f.AutoSelect != nil && *f.AutoSelect
}
