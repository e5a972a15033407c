package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
)

// InferenceServiceStatus is the observed state of an InferenceService: the
// fields KServe writes, unchanged, plus lifecycle.
type InferenceServiceStatus struct {
	// Status holds observedGeneration, conditions (Ready, PredictorReady,
	// IngressReady, ... and fsmserve's Reconciling and Stalled) and annotations.
	common.Status `json:",inline"`
	// Address is the in-cluster address of the InferenceService.
	// +optional
	Address *common.Addressable `json:"address,omitempty"`
	// URL is where the InferenceService is reached, typically
	// http[s]://{name}.{namespace}.{domain}.
	// +optional
	URL *common.URL `json:"url,omitempty"`
	// Components is the state of each component, keyed predictor, transformer, explainer.
	Components map[ComponentType]ComponentStatusSpec `json:"components,omitempty"`
	// ModelStatus is the state of the predictor's model.
	ModelStatus ModelStatus `json:"modelStatus,omitempty"`
	// CanaryStatuses is the state of each Standard-mode canary.
	// +optional
	// +listType=atomic
	CanaryStatuses []CanaryStatus `json:"canaryStatuses,omitempty"`
	// DeploymentMode chosen for this InferenceService; once set it does not change.
	DeploymentMode string `json:"deploymentMode,omitempty"`
	// ServingRuntimeName is the namespaced runtime serving the model, if any.
	ServingRuntimeName string `json:"servingRuntimeName,omitempty"`
	// ClusterServingRuntimeName is the cluster runtime serving the model, if any.
	ClusterServingRuntimeName string `json:"clusterServingRuntimeName,omitempty"`
	// Lifecycle is the state of the InferenceService state machine (fsmserve).
	// +optional
	Lifecycle *common.Lifecycle `json:"lifecycle,omitempty"`
}

// ComponentStatusSpec is the observed state of one component.
type ComponentStatusSpec struct {
	// LatestReadyRevision is the newest revision that is ready.
	// +optional
	LatestReadyRevision string `json:"latestReadyRevision,omitempty"`
	// LatestCreatedRevision is the newest revision created.
	// +optional
	LatestCreatedRevision string `json:"latestCreatedRevision,omitempty"`
	// PreviousRolledoutRevision is the revision that had all the traffic before the latest one.
	// +optional
	PreviousRolledoutRevision string `json:"previousRolledoutRevision,omitempty"`
	// LatestRolledoutRevision is the newest revision that had all the traffic.
	// +optional
	LatestRolledoutRevision string `json:"latestRolledoutRevision,omitempty"`
	// Traffic is how requests are split between revisions.
	// +optional
	Traffic []TrafficTarget `json:"traffic,omitempty"`
	// URL of the component.
	// +optional
	URL *common.URL `json:"url,omitempty"`
	// RestURL is the component's REST endpoint (declared by KServe, not written).
	// +optional
	RestURL *common.URL `json:"restUrl,omitempty"`
	// GrpcURL is the component's gRPC endpoint (declared by KServe, not written).
	// +optional
	GrpcURL *common.URL `json:"grpcUrl,omitempty"`
	// Address is the in-cluster address of the component.
	// +optional
	Address *common.Addressable `json:"address,omitempty"`
}

// TrafficTarget is one entry of a traffic split, with the JSON shape of
// Knative's TrafficTarget.
type TrafficTarget struct {
	// Tag gives the target its own URL, e.g. prev or latest.
	// +optional
	Tag string `json:"tag,omitempty"`
	// RevisionName is the revision receiving this traffic.
	// +optional
	RevisionName string `json:"revisionName,omitempty"`
	// ConfigurationName is the configuration whose latest revision receives this traffic.
	// +optional
	ConfigurationName string `json:"configurationName,omitempty"`
	// LatestRevision is true when the target follows the latest ready revision.
	// +optional
	LatestRevision *bool `json:"latestRevision,omitempty"`
	// Percent of the traffic sent to the target.
	// +optional
	Percent *int64 `json:"percent,omitempty"`
	// URL of the tagged target.
	// +optional
	URL *common.URL `json:"url,omitempty"`
}

// CanaryStatus is the observed state of one canary.
type CanaryStatus struct {
	// Name of the canary (its predictor.name).
	Name string `json:"name"`
	// Ready is true when the canary Deployment is available.
	Ready bool `json:"ready"`
	// TrafficPercent currently sent to the canary.
	TrafficPercent int32 `json:"trafficPercent"`
	// ModelStatus is the state of the canary's model.
	// +optional
	ModelStatus ModelStatus `json:"modelStatus,omitempty"`
}

// ModelStatus is the state of a predictor's model.
type ModelStatus struct {
	// TransitionStatus says whether the serving endpoints reflect the current spec.
	// +kubebuilder:default=UpToDate
	TransitionStatus TransitionStatus `json:"transitionStatus"`
	// ModelRevisionStates are the active and target model states.
	// +optional
	ModelRevisionStates *ModelRevisionStates `json:"states,omitempty"`
	// LastFailureInfo describes the last failure to load the target model.
	// +optional
	LastFailureInfo *FailureInfo `json:"lastFailureInfo,omitempty"`
	// ModelCopies counts the copies of the model.
	// +optional
	ModelCopies *ModelCopies `json:"copies,omitempty"`
}

// ModelRevisionStates are the states of the serving and the upcoming model.
type ModelRevisionStates struct {
	// ActiveModelState is the state of the model now serving.
	// +kubebuilder:default=Pending
	ActiveModelState ModelState `json:"activeModelState"`
	// TargetModelState is the state of the model being rolled out.
	// +kubebuilder:default=""
	TargetModelState ModelState `json:"targetModelState,omitempty"`
}

// ModelCopies counts the copies of a model.
type ModelCopies struct {
	// FailedCopies is how many copies failed to load recently.
	// +kubebuilder:default=0
	FailedCopies int `json:"failedCopies"`
	// TotalCopies is how many copies exist, in any state.
	// +optional
	TotalCopies int `json:"totalCopies,omitempty"`
}

// TransitionStatus says whether the serving endpoints reflect the current spec.
// +kubebuilder:validation:Enum="";UpToDate;InProgress;BlockedByFailedLoad;InvalidSpec
type TransitionStatus string

// The transition statuses.
const (
	// UpToDate: the endpoints serve the current spec.
	UpToDate TransitionStatus = "UpToDate"
	// InProgress: the target model is on its way to the active model's state.
	InProgress TransitionStatus = "InProgress"
	// BlockedByFailedLoad: the target model failed to load.
	BlockedByFailedLoad TransitionStatus = "BlockedByFailedLoad"
	// InvalidSpec: the predictor spec failed validation.
	InvalidSpec TransitionStatus = "InvalidSpec"
)

// ModelState is the state of a model.
// +kubebuilder:validation:Enum="";Pending;Standby;Loading;Loaded;FailedToLoad
type ModelState string

// The model states.
const (
	// Pending: the model is not registered yet.
	Pending ModelState = "Pending"
	// Standby: the model is available but loads only when used.
	Standby ModelState = "Standby"
	// Loading: the model is loading.
	Loading ModelState = "Loading"
	// Loaded: at least one copy of the model is loaded.
	Loaded ModelState = "Loaded"
	// FailedToLoad: every copy of the model failed to load.
	FailedToLoad ModelState = "FailedToLoad"
)

// FailureReason classifies a model failure.
// +kubebuilder:validation:Enum=ModelLoadFailed;RuntimeUnhealthy;RuntimeDisabled;NoSupportingRuntime;RuntimeNotRecognized;InvalidPredictorSpec
type FailureReason string

// The failure reasons of lastFailureInfo.reason.
const (
	// ModelLoadFailed: the runtime container failed to load the model.
	ModelLoadFailed FailureReason = "ModelLoadFailed"
	// RuntimeUnhealthy: the runtime containers failed to start or are unhealthy.
	RuntimeUnhealthy FailureReason = "RuntimeUnhealthy"
	// RuntimeDisabled: the named runtime is disabled.
	RuntimeDisabled FailureReason = "RuntimeDisabled"
	// NoSupportingRuntime: no runtime supports the model format and protocol.
	NoSupportingRuntime FailureReason = "NoSupportingRuntime"
	// RuntimeNotRecognized: no runtime has the name the predictor asks for.
	RuntimeNotRecognized FailureReason = "RuntimeNotRecognized"
	// InvalidPredictorSpec: the predictor spec is invalid or unsupported.
	InvalidPredictorSpec FailureReason = "InvalidPredictorSpec"
)

// FailureInfo describes a failure to load a model.
type FailureInfo struct {
	// Location is where the failure happened, usually a pod name.
	// +optional
	Location string `json:"location,omitempty"`
	// Reason classifies the failure.
	// +optional
	Reason FailureReason `json:"reason,omitempty"`
	// Message describes the failure.
	// +optional
	Message string `json:"message,omitempty"`
	// ModelRevisionName identifies the model revision, tied to spec contents.
	// +optional
	ModelRevisionName string `json:"modelRevisionName,omitempty"`
	// Time the failure happened or was seen.
	// +optional
	Time *metav1.Time `json:"time,omitempty"`
	// ExitCode of the container's last termination.
	// +optional
	ExitCode int32 `json:"exitCode,omitempty"`
}
