// Package inferenceservice is the lifecycle of an InferenceService predictor in
// Standard (raw Deployment) mode, as an explicit state machine. It is pure: the
// controller observes the world, this package decides.
package inferenceservice

// State is where an InferenceService is in its lifecycle. Names answer the
// questions a user asks: is it resolving its runtime? deploying? ready?
// degraded? failed, and why? stopped?
type State string

const (
	// Active is the superstate of every state of a live object.
	Active State = "Active"
	// Pending: accepted, nothing done yet.
	Pending State = "Pending"
	// Recovering: the stored state was not recognised; re-deriving it.
	Recovering State = "Recovering"
	// Resolving: choosing the serving runtime and building the predictor.
	Resolving State = "Resolving"
	// RuntimeUnavailable: no usable runtime; recovers when one appears.
	RuntimeUnavailable State = "RuntimeUnavailable"
	// InvalidSpec: the predictor cannot be built from the spec and runtime.
	InvalidSpec State = "InvalidSpec"
	// ConfigInvalid: inferenceservice-config has a bad value this object needs.
	ConfigInvalid State = "ConfigInvalid"
	// ChildConflict: a child with the predictor's name belongs to someone else.
	ChildConflict State = "ChildConflict"
	// Refused: the API server refused a child (a quota, the service IP range,
	// another product's admission webhook); the apply is retried.
	Refused State = "Refused"
	// Deploying: the first version is rolling out; nothing serves yet.
	Deploying State = "Deploying"
	// RollingOut: a new version is rolling out while the previous one serves.
	RollingOut State = "RollingOut"
	// Ready: the current version serves.
	Ready State = "Ready"
	// Degraded: it was ready and lost availability.
	Degraded State = "Degraded"
	// Failed: the rollout failed (progress deadline exceeded or replica failure).
	Failed State = "Failed"
	// Repairing: predictor pods were created without what the pod mutator
	// injects (it was down); they are being recreated through it.
	Repairing State = "Repairing"
	// Stopped: stopped by the serving.kserve.io/stop annotation.
	Stopped State = "Stopped"
	// UnsupportedMode: the object asks for a deployment mode fsmserve does not run.
	UnsupportedMode State = "UnsupportedMode"
	// Deleting: the object is being deleted.
	Deleting State = "Deleting"
)

// Trigger is an observation that moves the machine.
type Trigger string

const (
	Admitted             Trigger = "Admitted"
	ModeRejected         Trigger = "ModeRejected"
	RuntimeResolved      Trigger = "RuntimeResolved"
	RuntimeMissing       Trigger = "RuntimeMissing"
	SpecRejected         Trigger = "SpecRejected"
	ConfigRejected       Trigger = "ConfigRejected"
	ChildNotOwned        Trigger = "ChildNotOwned"
	ChildRefused         Trigger = "ChildRefused"
	RolloutStarted       Trigger = "RolloutStarted"
	RolloutSucceeded     Trigger = "RolloutSucceeded"
	RolloutFailed        Trigger = "RolloutFailed"
	AvailabilityLost     Trigger = "AvailabilityLost"
	AvailabilityRestored Trigger = "AvailabilityRestored"
	Recovered            Trigger = "Recovered"
	InjectionMissing     Trigger = "InjectionMissing"
	InjectionRestored    Trigger = "InjectionRestored"
	SpecChanged          Trigger = "SpecChanged"
	StopRequested        Trigger = "StopRequested"
	ResumeRequested      Trigger = "ResumeRequested"
	DeletionRequested    Trigger = "DeletionRequested"
	RecoveryStarted      Trigger = "RecoveryStarted"
)

// MachineName is the machine's name in status.lifecycle.machine and in
// `fsmserve machines graph`.
const MachineName = "inferenceservice"

// Reasons recorded in status.lifecycle.reason for states whose reason does not
// come from the observation. Failure reasons (RuntimeNotRecognized,
// ProgressDeadlineExceeded, InvalidIngressConfig, ...) come from the
// observation so they say exactly what went wrong.
const (
	ReasonPending            = "Pending"
	ReasonResolving          = "ResolvingRuntime"
	ReasonDeploying          = "Deploying"
	ReasonRollingOut         = "RollingOut"
	ReasonReady              = "PredictorAvailable"
	ReasonStopped            = "Stopped"
	ReasonDeleting           = "Deleting"
	ReasonRecovering         = "RecoveringUnknownState"
	ReasonModeUnsupported    = "DeploymentModeUnsupported"
	ReasonAvailabilityLost   = "AvailabilityLost"
	ReasonPodMutationMissing = "PodMutationMissing"
)

// Activities: the steps the states run, by name. The controller supplies one
// step per name.
const (
	// ActivityEnsurePredictor applies the predictor's Service, Deployment,
	// autoscaler and Ingress.
	ActivityEnsurePredictor = "EnsurePredictor"
	// ActivityRecheckChildren looks again, after a while, for a foreign child.
	ActivityRecheckChildren = "RecheckChildren"
	// ActivityRepairPods recreates, one at a time, pods the mutator missed.
	ActivityRepairPods = "RepairPods"
	// ActivityDeleteWorkloads removes the workloads of a stopped object.
	ActivityDeleteWorkloads = "DeleteWorkloads"
	// ActivityDeleteChildren removes every child before the object goes.
	ActivityDeleteChildren = "DeleteChildren"
)
