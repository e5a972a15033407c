// Package inferencegraph is the lifecycle of an InferenceGraph in Standard
// mode (one router Deployment, Service and HPA per graph), as an explicit
// state machine. It is pure: the controller observes the graph, the
// InferenceServices its steps name and the router, and this package decides.
package inferencegraph

// State is where an InferenceGraph is in its lifecycle. Names answer the
// questions a user asks: is it resolving its steps? waiting for an
// InferenceService (which, and why)? deploying the router? ready? degraded?
// stopped?
type State string

const (
	// Active is the superstate of every state of a live object.
	Active State = "Active"
	// Pending: accepted, nothing done yet.
	Pending State = "Pending"
	// Recovering: the stored state was not recognised; re-deriving it.
	Recovering State = "Recovering"
	// ResolvingSteps: turning every serviceName step into the URL it calls.
	ResolvingSteps State = "ResolvingSteps"
	// WaitingForInferenceService: a step names an InferenceService that is
	// missing or not Ready; the message says which and why.
	WaitingForInferenceService State = "WaitingForInferenceService"
	// InvalidSpec: the router cannot be built from the graph as written.
	InvalidSpec State = "InvalidSpec"
	// ConfigInvalid: inferenceservice-config has a bad value the graph needs.
	ConfigInvalid State = "ConfigInvalid"
	// DeployingRouter: the first router version is rolling out.
	DeployingRouter State = "DeployingRouter"
	// ChildConflict: a child with the router's name belongs to someone else.
	ChildConflict State = "ChildConflict"
	// Refused: the API server refused a router child (a quota, the service
	// IP range, another admission webhook); the apply is retried.
	Refused State = "Refused"
	// RollingOut: a new router version rolls out while the previous serves.
	RollingOut State = "RollingOut"
	// Ready: the router serves the current graph.
	Ready State = "Ready"
	// Degraded: it was ready and lost the router or an InferenceService.
	Degraded State = "Degraded"
	// Failed: the router's rollout failed.
	Failed State = "Failed"
	// Stopped: stopped by the serving.kserve.io/stop annotation.
	Stopped State = "Stopped"
	// UnsupportedMode: the graph asks for a deployment mode fsmserve does not run.
	UnsupportedMode State = "UnsupportedMode"
	// Deleting: the object is being deleted.
	Deleting State = "Deleting"
)

// Trigger is an observation that moves the machine.
type Trigger string

const (
	Admitted                    Trigger = "Admitted"
	ModeRejected                Trigger = "ModeRejected"
	StepsResolved               Trigger = "StepsResolved"
	InferenceServiceUnavailable Trigger = "InferenceServiceUnavailable"
	SpecRejected                Trigger = "SpecRejected"
	ConfigRejected              Trigger = "ConfigRejected"
	ChildNotOwned               Trigger = "ChildNotOwned"
	ChildRefused                Trigger = "ChildRefused"
	RolloutStarted              Trigger = "RolloutStarted"
	RolloutSucceeded            Trigger = "RolloutSucceeded"
	RolloutFailed               Trigger = "RolloutFailed"
	AvailabilityLost            Trigger = "AvailabilityLost"
	AvailabilityRestored        Trigger = "AvailabilityRestored"
	Recovered                   Trigger = "Recovered"
	SpecChanged                 Trigger = "SpecChanged"
	StopRequested               Trigger = "StopRequested"
	ResumeRequested             Trigger = "ResumeRequested"
	DeletionRequested           Trigger = "DeletionRequested"
	RecoveryStarted             Trigger = "RecoveryStarted"
)

// MachineName is the machine's name in status.lifecycle.machine and in
// `fsmserve machines graph`.
const MachineName = "inferencegraph"

// Reasons recorded in status.lifecycle.reason for states whose reason does not
// come from the observation. Problem reasons (InferenceServiceNotFound,
// InvalidGraphSpec, ...) and rollout failures (ProgressDeadlineExceeded) come
// from the observation so they say exactly what is wrong.
const (
	ReasonPending          = "Pending"
	ReasonResolving        = "ResolvingSteps"
	ReasonDeploying        = "DeployingRouter"
	ReasonRollingOut       = "RollingOut"
	ReasonReady            = "RouterAvailable"
	ReasonStopped          = "Stopped"
	ReasonDeleting         = "Deleting"
	ReasonRecovering       = "RecoveringUnknownState"
	ReasonModeUnsupported  = "DeploymentModeUnsupported"
	ReasonAvailabilityLost = "AvailabilityLost"
)

// Reasons of service problems: a serviceName step cannot be resolved.
const (
	ReasonServiceNotFound = "InferenceServiceNotFound"
	ReasonServiceNotReady = "InferenceServiceNotReady"
	ReasonRuntimeNotFound = "RuntimeNotFound"
)

// Activities: the steps the states run, by name.
const (
	// ActivityEnsureRouter applies the router's Service, Deployment and autoscaler.
	ActivityEnsureRouter = "EnsureRouter"
	// ActivityRecheckChildren looks again, after a while, for a foreign child.
	ActivityRecheckChildren = "RecheckChildren"
	// ActivityDeleteRouter removes the router of a stopped graph.
	ActivityDeleteRouter = "DeleteRouter"
	// ActivityDeleteChildren removes every child before the graph goes.
	ActivityDeleteChildren = "DeleteChildren"
)
