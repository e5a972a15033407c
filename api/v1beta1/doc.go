// Package v1beta1 holds the serving.kserve.io/v1beta1 API: the InferenceService
// kind, field for field as KServe declares it, so that any KServe manifest
// decodes and round-trips unchanged. fsmserve adds one status block,
// status.lifecycle, which shows the InferenceService state machine.
//
// +kubebuilder:object:generate=true
// +groupName=serving.kserve.io
package v1beta1
