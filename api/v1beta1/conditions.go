package v1beta1

import "github.com/fsmserve/fsmserve/api/common"

// Condition types of an InferenceService. Ready is the AND of PredictorReady
// and IngressReady, as in KServe; the others are observations.
const (
	// Ready is the top-level readiness that `kubectl wait` and the KServe SDK read.
	Ready common.ConditionType = "Ready"
	// PredictorReady: the predictor's workload is ready.
	PredictorReady common.ConditionType = "PredictorReady"
	// TransformerReady: the transformer's workload is ready.
	TransformerReady common.ConditionType = "TransformerReady"
	// ExplainerReady: the explainer's workload is ready.
	ExplainerReady common.ConditionType = "ExplainerReady"
	// IngressReady: routing to the entry component is in place.
	IngressReady common.ConditionType = "IngressReady"
	// PredictorRouteReady: the predictor's Knative route is ready (Knative mode).
	PredictorRouteReady common.ConditionType = "PredictorRouteReady"
	// TransformerRouteReady: the transformer's Knative route is ready (Knative mode).
	TransformerRouteReady common.ConditionType = "TransformerRouteReady"
	// ExplainerRoutesReady: the explainer's Knative route is ready (Knative mode).
	ExplainerRoutesReady common.ConditionType = "ExplainerRoutesReady"
	// PredictorConfigurationReady: the predictor's Knative configuration is ready.
	PredictorConfigurationReady common.ConditionType = "PredictorConfigurationReady"
	// TransformerConfigurationReady: the transformer's Knative configuration is ready.
	TransformerConfigurationReady common.ConditionType = "TransformerConfigurationReady"
	// ExplainerConfigurationReady: the explainer's Knative configuration is ready.
	ExplainerConfigurationReady common.ConditionType = "ExplainerConfigurationReady"
	// RoutesReady: every component's route is ready (Knative mode).
	RoutesReady common.ConditionType = "RoutesReady"
	// LatestDeploymentReady: every component's latest configuration is ready (Knative mode).
	LatestDeploymentReady common.ConditionType = "LatestDeploymentReady"
	// CanaryPredictorReady: every Standard-mode canary is ready; absent without canaries.
	CanaryPredictorReady common.ConditionType = "CanaryPredictorReady"
	// Stopped: the serving.kserve.io/stop annotation removed the workloads.
	Stopped common.ConditionType = "Stopped"
	// OciImageVolumeCompatible: advisory, whether the cluster supports native OCI image volumes.
	OciImageVolumeCompatible common.ConditionType = "OciImageVolumeCompatible"

	// Reconciling (fsmserve, kstatus): the controller is still moving the
	// object towards its spec.
	Reconciling common.ConditionType = "Reconciling"
	// Stalled (fsmserve, kstatus): the controller cannot make progress
	// without a change from outside.
	Stalled common.ConditionType = "Stalled"
)

// Condition reasons KServe writes on an InferenceService.
const (
	// ReasonStopped marks conditions of a stopped InferenceService.
	ReasonStopped = "Stopped"
	// ReasonReconcileFailed marks a component whose reconcile returned an error.
	ReasonReconcileFailed = "ReconcileFailed"
	// ReasonInvalidWorkerSpecNotSet: workerSpec is set but the runtime has none.
	ReasonInvalidWorkerSpecNotSet = "InvalidWorkerSpecNotSet"
	// ReasonInvalidGPUAllocation: the GPUs requested do not fit the multi-node layout.
	ReasonInvalidGPUAllocation = "InvalidGPUAllocation"
	// ReasonAllCanariesReady: CanaryPredictorReady is True.
	ReasonAllCanariesReady = "AllCanariesReady"
	// ReasonCanariesNotReady: CanaryPredictorReady is False.
	ReasonCanariesNotReady = "CanariesNotReady"
	// ReasonImageVolumeUnsupported: the cluster has no OCI image volumes.
	ReasonImageVolumeUnsupported = "ImageVolumeUnsupported"
	// ReasonImageVolumeSubPathUnsupported: image volumes lack subPath support.
	ReasonImageVolumeSubPathUnsupported = "ImageVolumeSubPathUnsupported"
	// ReasonImageVolumeAlpha: image volumes need a feature gate.
	ReasonImageVolumeAlpha = "ImageVolumeAlpha"
)

// ReadyCondition returns the readiness condition of component c, or "" for
// an unknown component.
func (c ComponentType) ReadyCondition() common.ConditionType {
	switch c {
	case PredictorComponent:
		return PredictorReady
	case TransformerComponent:
		return TransformerReady
	case ExplainerComponent:
		return ExplainerReady
	}
	return ""
}
