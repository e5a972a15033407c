package inferencegraph

import "github.com/fsmserve/fsmserve/machines/workload"

// Observation is everything the controller saw in one reconcile that the
// machine decides on. It is a plain value: building it is the controller's job.
type Observation struct {
	// Deleting is true once the object has a deletion timestamp.
	Deleting bool
	// StopRequested is true while serving.kserve.io/stop is "true".
	StopRequested bool
	// SpecChanged is true when the generation differs from the one last acted on.
	SpecChanged bool
	// Mode is the resolved deployment mode (sticky in status).
	Mode string
	// ModeSupported is false for modes fsmserve does not run (Knative, ModelMesh).
	ModeSupported bool
	// Problem is what stops the router from being built, if anything.
	Problem Problem
	// Router is what the router Deployment reports.
	Router Workload
	// DeploymentName is the router Deployment's name, for messages.
	DeploymentName string
	// RouterApplied is true once the step that applies the router ran and
	// succeeded in this reconcile: a refusal is only over when an apply
	// went through.
	RouterApplied bool
}

// ProblemKind sorts what stops the router from being built by who fixes it:
// an InferenceService a step calls, the graph's spec, or the platform's
// configuration.
type ProblemKind string

const (
	NoProblem ProblemKind = ""
	// ServiceProblem: a serviceName step names an InferenceService that is
	// missing or not Ready. It resolves by itself when the service is Ready.
	ServiceProblem ProblemKind = "Service"
	SpecProblem    ProblemKind = "Spec"
	ConfigProblem  ProblemKind = "Config"
	// OwnershipProblem: a child with the router's name is controlled by
	// someone else; whoever made it renames or deletes it.
	OwnershipProblem ProblemKind = "Ownership"
	// RefusalProblem: the API server refused a router child the spec
	// describes well; the cluster's owner lifts it, fsmserve retries.
	RefusalProblem ProblemKind = "Refusal"
)

// Problem is a reason the router cannot be built, with a message that names
// what is missing or wrong and what to do about it.
type Problem struct {
	Kind    ProblemKind
	Reason  string
	Message string
}

// Workload is the Deployment distilled, read the one way every machine that
// runs a Deployment reads it.
type Workload = workload.Workload
