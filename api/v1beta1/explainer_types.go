package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
)

// ExplainerSpec configures the component that explains the predictor's
// answers: a built-in explainer (art) or custom containers.
type ExplainerSpec struct {
	// ART runs the Adversarial Robustness Toolbox explainer.
	ART *ARTExplainerSpec `json:"art,omitempty"`
	// PodSpec holds pod-level overrides or, for a custom explainer, its containers.
	PodSpec `json:",inline"`
	// ComponentExtensionSpec holds the scaling, logging and rollout settings.
	ComponentExtensionSpec `json:",inline"`

	// StorageUris downloads several artifacts, each to its own mount path.
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	StorageUris []StorageUri `json:"storageUris,omitempty"`
}

// ExplainerExtensionSpec is what the built-in explainers share.
type ExplainerExtensionSpec struct {
	// StorageURI of a trained explanation model.
	StorageURI string `json:"storageUri,omitempty"`
	// RuntimeVersion overrides the explainer image tag.
	RuntimeVersion *string `json:"runtimeVersion,omitempty"`
	// Config is passed to the explainer as --key value arguments.
	Config map[string]string `json:"config,omitempty"`
	// Container overrides fields of the explainer container.
	// +optional
	corev1.Container `json:",inline"`
	// Storage locates the explanation model through the storage-config secret.
	// +optional
	Storage *ModelStorageSpec `json:"storage,omitempty"`
}

// ARTExplainerType is the attack an ART explainer runs.
type ARTExplainerType string

// The ART explainer types.
const (
	ARTSquareAttackExplainer ARTExplainerType = "SquareAttack"
)

// ARTExplainerSpec configures the ART explainer.
type ARTExplainerSpec struct {
	// Type of the explainer, e.g. SquareAttack.
	Type ARTExplainerType `json:"type"`

	ExplainerExtensionSpec `json:",inline"`
}
