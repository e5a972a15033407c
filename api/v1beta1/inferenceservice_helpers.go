package v1beta1

import "strings"

// InferenceServiceFinalizer is KServe's finalizer name: it lets the
// Deleting transition be recorded, traced and published before the object
// goes. The defaulting webhook sets it on create, so the controller's first
// reconcile does not spend a write on it.
const InferenceServiceFinalizer = "inferenceservice.finalizers"

// PredictorName returns the name KServe gives a predictor's Deployment,
// Service or Knative Service: {isvc}-predictor, or {isvc}-{name}-predictor
// when the predictor is named.
func PredictorName(isvcName, predictorName string) string {
	if predictorName == "" {
		return isvcName + "-" + string(PredictorComponent)
	}
	return isvcName + "-" + predictorName + "-" + string(PredictorComponent)
}

// PredictorDeploymentName returns the name of the stable predictor's workload.
func (isvc *InferenceService) PredictorDeploymentName() string {
	return PredictorName(isvc.Name, isvc.Spec.Predictor.Name)
}

// CanaryDeploymentName returns the name of a canary predictor's workload,
// {isvc}-{canary.predictor.name}-predictor.
func (isvc *InferenceService) CanaryDeploymentName(canary *CanarySpec) string {
	return PredictorName(isvc.Name, canary.Predictor.Name)
}

// ComponentDeploymentName returns the name of a component's workload:
// the predictor's as PredictorDeploymentName, {isvc}-transformer,
// {isvc}-explainer.
func (isvc *InferenceService) ComponentDeploymentName(component ComponentType) string {
	if component == PredictorComponent {
		return isvc.PredictorDeploymentName()
	}
	return isvc.Name + "-" + string(component)
}

// IsStopped reports whether the serving.kserve.io/stop annotation asks for
// the workloads to be removed; like KServe, "true" in any letter case.
func (isvc *InferenceService) IsStopped() bool {
	return strings.EqualFold(isvc.Annotations[StopAnnotation], "true")
}

// NormalizeDeploymentMode maps a deployment mode as written in an annotation
// or in status, legacy names included, to its current name. It is false for
// an unknown mode; "" is unknown.
func NormalizeDeploymentMode(mode string) (DeploymentMode, bool) {
	switch DeploymentMode(mode) {
	case Standard, LegacyRawDeployment:
		return Standard, true
	case Knative, LegacyServerless:
		return Knative, true
	case ModelMesh:
		return ModelMesh, true
	}
	return "", false
}
