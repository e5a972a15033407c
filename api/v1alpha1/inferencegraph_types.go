package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
)

// InferenceGraph chains, splits, switches and ensembles InferenceServices
// behind one router. Its lifecycle is an explicit state machine whose
// current state is status.lifecycle.state.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=inferencegraphs,singular=inferencegraph,shortName=ig,scope=Namespaced
// +kubebuilder:printcolumn:name="URL",type="string",JSONPath=".status.url"
// +kubebuilder:printcolumn:name="Ready",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="State",type="string",JSONPath=".status.lifecycle.state"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type InferenceGraph struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   InferenceGraphSpec   `json:"spec,omitempty"`
	Status InferenceGraphStatus `json:"status,omitempty"`
}

// InferenceGraphList is a list of InferenceGraphs.
//
// +kubebuilder:object:root=true
type InferenceGraphList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []InferenceGraph `json:"items"`
}

// GraphRootNodeName is the node every request enters; a graph must have it.
const GraphRootNodeName = "root"

// InferenceGraphSpec is the graph and the router's deployment settings.
type InferenceGraphSpec struct {
	// Nodes of the graph by name; "root" is required.
	Nodes map[string]InferenceRouter `json:"nodes"`
	// Resources of the router container.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	// Affinity of the router pods.
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// TimeoutSeconds bounds a request through the graph.
	// +optional
	TimeoutSeconds *int64 `json:"timeout,omitempty"`
	// RouterTimeouts are the router's server and client timeouts.
	// +optional
	RouterTimeouts *InfereceGraphRouterTimeouts `json:"routerTimeouts,omitempty"`
	// MinReplicas of the router; defaults to 1, 0 allows scale to zero.
	// +optional
	MinReplicas *int32 `json:"minReplicas,omitempty"`
	// MaxReplicas of the router; 0 means no limit.
	// +optional
	MaxReplicas int32 `json:"maxReplicas,omitempty"`
	// ScaleTarget is the target value of scaleMetric.
	// +optional
	ScaleTarget *int32 `json:"scaleTarget,omitempty"`
	// ScaleMetric is cpu, memory, concurrency or rps.
	// +optional
	ScaleMetric *ScaleMetric `json:"scaleMetric,omitempty"`
	// Tolerations of the router pods.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// NodeSelector of the router pods.
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// NodeName binds the router pods to a node.
	// +optional
	NodeName string `json:"nodeName,omitempty"`
	// ServiceAccountName the router pods run as.
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
}

// ScaleMetric is the metric the router scales on.
// +kubebuilder:validation:Enum=cpu;memory;concurrency;rps
type ScaleMetric string

// InfereceGraphRouterTimeouts are the router's timeouts in seconds. The type
// name keeps KServe's spelling.
type InfereceGraphRouterTimeouts struct {
	// ServerRead bounds reading a request.
	// +optional
	ServerRead *int64 `json:"serverRead,omitempty"`
	// ServerWrite bounds writing a response.
	// +optional
	ServerWrite *int64 `json:"serverWrite,omitempty"`
	// ServerIdle bounds the wait for the next request on a kept-alive connection.
	// +optional
	ServerIdle *int64 `json:"serverIdle,omitempty"`
	// ServiceClient bounds a call from the router to a step.
	// +optional
	ServiceClient *int64 `json:"serviceClient,omitempty"`
}

// InferenceRouterType is how a node routes a request.
// +kubebuilder:validation:Enum=Sequence;Splitter;Ensemble;Switch
type InferenceRouterType string

// The router types.
const (
	// Sequence calls the steps in order.
	Sequence InferenceRouterType = "Sequence"
	// Splitter sends each request to one step, chosen by weight.
	Splitter InferenceRouterType = "Splitter"
	// Ensemble calls every step and merges the responses.
	Ensemble InferenceRouterType = "Ensemble"
	// Switch calls the first step whose condition matches.
	Switch InferenceRouterType = "Switch"
)

// InferenceRouter is a node of the graph.
type InferenceRouter struct {
	// RouterType is Sequence, Splitter, Ensemble or Switch.
	RouterType InferenceRouterType `json:"routerType"`
	// Steps are where the node sends requests.
	// +optional
	Steps []InferenceStep `json:"steps,omitempty"`
}

// InferenceTarget is where a step sends a request; exactly one field is set.
type InferenceTarget struct {
	// NodeName of another node of the graph.
	// +optional
	NodeName string `json:"nodeName,omitempty"`
	// ServiceName of an InferenceService in the graph's namespace.
	ServiceName string `json:"serviceName,omitempty"`
	// ServiceURL to call directly.
	// +optional
	ServiceURL string `json:"serviceUrl,omitempty"`
}

// InferenceStepDependencyType says whether a failing step fails the request.
// +kubebuilder:validation:Enum=Soft;Hard
type InferenceStepDependencyType string

// The step dependency types.
const (
	Soft InferenceStepDependencyType = "Soft"
	Hard InferenceStepDependencyType = "Hard"
)

// InferenceStep is one destination of a node.
type InferenceStep struct {
	// StepName is unique within the node.
	// +optional
	StepName string `json:"name,omitempty"`

	InferenceTarget `json:",inline"`

	// Data sent to the step: $request (the node's input) or $response (the
	// previous step's output).
	// +optional
	Data string `json:"data,omitempty"`
	// MapPredictionsToInstances turns the previous response's predictions
	// into this request's instances.
	// +optional
	MapPredictionsToInstances bool `json:"mapPredictionsToInstances,omitempty"`
	// Weight of the step in a Splitter; a node's weights add up to 100.
	// +optional
	Weight *int64 `json:"weight,omitempty"`
	// Condition is a GJSON path the request must match (Switch, Sequence).
	// +optional
	Condition string `json:"condition,omitempty"`
	// Dependency is Hard when the step's failure fails the request.
	// +optional
	Dependency InferenceStepDependencyType `json:"dependency,omitempty"`

	// Timeout bounds this step's call in seconds, inside the graph's own
	// timeout (fsmserve; KServe has only the graph-wide one). The router
	// answers 504 naming the step when it is exceeded.
	// +optional
	// +kubebuilder:validation:Minimum=1
	Timeout *int64 `json:"timeout,omitempty"`
}

// InferenceGraphStatus is the observed state of an InferenceGraph.
type InferenceGraphStatus struct {
	// Status holds observedGeneration, conditions (Ready, Stopped, and
	// fsmserve's Reconciling and Stalled) and annotations.
	common.Status `json:",inline"`
	// URL of the graph.
	// +optional
	URL *common.URL `json:"url,omitempty"`
	// DeploymentMode chosen for the graph.
	DeploymentMode string `json:"deploymentMode,omitempty"`
	// Lifecycle is the state of the InferenceGraph state machine (fsmserve).
	// +optional
	Lifecycle *common.Lifecycle `json:"lifecycle,omitempty"`
}

func init() {
	SchemeBuilder.Register(&InferenceGraph{}, &InferenceGraphList{})
}
