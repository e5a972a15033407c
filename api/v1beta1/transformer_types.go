package v1beta1

// TransformerSpec configures the component that pre- and post-processes
// requests: always custom containers.
type TransformerSpec struct {
	// PodSpec holds the transformer's containers and pod-level settings.
	PodSpec `json:",inline"`
	// ComponentExtensionSpec holds the scaling, logging and rollout settings.
	ComponentExtensionSpec `json:",inline"`

	// StorageUris downloads several artifacts, each to its own mount path.
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	StorageUris []StorageUri `json:"storageUris,omitempty"`
}
