package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// InferenceService serves a model over HTTP or gRPC: a predictor, optionally
// fronted by a transformer and accompanied by an explainer. Its lifecycle is
// an explicit state machine whose current state is status.lifecycle.state.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=inferenceservices,singular=inferenceservice,shortName=isvc,scope=Namespaced
// +kubebuilder:storageversion
// +kubebuilder:printcolumn:name="URL",type="string",JSONPath=".status.url"
// +kubebuilder:printcolumn:name="Ready",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="State",type="string",JSONPath=".status.lifecycle.state"
// +kubebuilder:printcolumn:name="Prev",type="integer",JSONPath=".status.components.predictor.traffic[?(@.tag=='prev')].percent"
// +kubebuilder:printcolumn:name="Latest",type="integer",JSONPath=".status.components.predictor.traffic[?(@.latestRevision==true)].percent"
// +kubebuilder:printcolumn:name="PrevRolledoutRevision",type="string",JSONPath=".status.components.predictor.traffic[?(@.tag=='prev')].revisionName"
// +kubebuilder:printcolumn:name="LatestReadyRevision",type="string",JSONPath=".status.components.predictor.traffic[?(@.latestRevision==true)].revisionName"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type InferenceService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InferenceServiceSpec `json:"spec,omitempty"`

	// Status keeps fields it does not know, as KServe's schema does, so
	// status written by KServe tooling survives a round trip.
	// +kubebuilder:pruning:PreserveUnknownFields
	Status InferenceServiceStatus `json:"status,omitempty"`
}

// InferenceServiceList is a list of InferenceServices.
//
// +kubebuilder:object:root=true
type InferenceServiceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []InferenceService `json:"items"`
}

// InferenceServiceSpec is the desired state of an InferenceService.
type InferenceServiceSpec struct {
	// Predictor serves the model. It is the only required component.
	// +required
	Predictor PredictorSpec `json:"predictor"`
	// Explainer serves explanations of the predictor's answers; it calls the
	// transformer when there is one, else the predictor.
	// +optional
	Explainer *ExplainerSpec `json:"explainer,omitempty"`
	// Transformer pre- and post-processes requests on their way to and from
	// the predictor.
	// +optional
	Transformer *TransformerSpec `json:"transformer,omitempty"`
	// Canary lists Standard-mode canary predictors rolled out next to the
	// stable one. Each canary needs predictor.name, which names its
	// Deployment {isvc}-{name}-predictor.
	// +optional
	// +listType=atomic
	Canary []CanarySpec `json:"canary,omitempty"`
}

// CanarySpec is one canary predictor and the share of traffic it receives.
type CanarySpec struct {
	// Predictor of the canary; predictor.name is required here.
	// +required
	Predictor PredictorSpec `json:"predictor"`
	// TrafficPercent is the share of requests sent to this canary; 0 deploys
	// it without traffic (dark launch). All canaries together take at most 100.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	TrafficPercent int32 `json:"trafficPercent"`
}

func init() {
	SchemeBuilder.Register(&InferenceService{}, &InferenceServiceList{})
}
