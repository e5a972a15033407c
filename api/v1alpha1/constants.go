package v1alpha1

import "github.com/fsmserve/fsmserve/api/common"

// InferenceServiceProtocol is an inference protocol a runtime speaks; the
// same values as v1beta1.InferenceServiceProtocol.
type InferenceServiceProtocol string

// The inference protocols.
const (
	ProtocolV1     InferenceServiceProtocol = "v1"
	ProtocolV2     InferenceServiceProtocol = "v2"
	ProtocolGRPCV1 InferenceServiceProtocol = "grpc-v1"
	ProtocolGRPCV2 InferenceServiceProtocol = "grpc-v2"
)

// Annotations and labels on the kinds of this package (KServe's keys).
const (
	// ServerTypeAnnotation on a runtime selects its defaults and image-tag rules.
	ServerTypeAnnotation = "serving.kserve.io/server-type"
	// MultiNodeExecutorBackendAnnotation set to "mp" on a runtime uses
	// multiprocessing instead of Ray for multi-node serving.
	MultiNodeExecutorBackendAnnotation = "multinode/executor-backend"
	// InferenceGraphLabel on a graph's children names the graph.
	InferenceGraphLabel = "serving.kserve.io/inferencegraph"
	// KindLabel on a graph's Knative revision is InferenceGraph.
	KindLabel = "serving.kserve.io/kind"
	// DeploymentModeAnnotation chooses Standard or Knative for a graph.
	DeploymentModeAnnotation = "serving.kserve.io/deploymentMode"
	// AutoscalerClassAnnotation chooses the autoscaler of a Standard-mode graph.
	AutoscalerClassAnnotation = "serving.kserve.io/autoscalerClass"
)

// Condition types of the kinds of this package.
const (
	// Ready is the top-level readiness.
	Ready common.ConditionType = "Ready"
	// Stopped: a graph was stopped with serving.kserve.io/stop.
	Stopped common.ConditionType = "Stopped"
	// Reconciling (fsmserve, kstatus): the controller is still moving the
	// object towards its spec.
	Reconciling common.ConditionType = "Reconciling"
	// Stalled (fsmserve, kstatus): the controller cannot make progress
	// without a change from outside.
	Stalled common.ConditionType = "Stalled"
)
