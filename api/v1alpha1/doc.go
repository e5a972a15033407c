// Package v1alpha1 holds the serving.kserve.io/v1alpha1 API: ServingRuntime,
// ClusterServingRuntime, ClusterStorageContainer, InferenceGraph and the
// LocalModel family, field for field as KServe declares them, so that any
// KServe manifest decodes and round-trips unchanged. fsmserve adds the
// status.lifecycle block (status.lifecycles on LocalModelNode), which shows
// each kind's state machine.
//
// +kubebuilder:object:generate=true
// +groupName=serving.kserve.io
package v1alpha1
