package inferenceservice

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
	// Problem is what stops the predictor from being built, if anything.
	Problem Problem
	// Predictor is what the predictor Deployment reports.
	Predictor Workload
	// Name of the predictor Deployment, for messages.
	DeploymentName string
	// PredictorApplied is true once the step that applies the predictor ran
	// and succeeded in this reconcile: a refusal is only over when an apply
	// went through.
	PredictorApplied bool
	// PodTrouble is why a predictor pod does not run, in the scheduler's
	// or kubelet's words; it explains a wait, it decides nothing.
	PodTrouble workload.PodTrouble
	// UninjectedPods names predictor pods that lack what the pod mutator
	// injects (storage initializer, agent): created while it was down.
	UninjectedPods []string
}

// ProblemKind sorts the problems that stop a predictor from being built by who
// fixes them: a runtime, the spec, or the platform's configuration.
type ProblemKind string

const (
	NoProblem      ProblemKind = ""
	RuntimeProblem ProblemKind = "Runtime"
	SpecProblem    ProblemKind = "Spec"
	ConfigProblem  ProblemKind = "Config"
	// OwnershipProblem: a child with the predictor's name is controlled by
	// someone else; whoever made it renames or deletes it.
	OwnershipProblem ProblemKind = "Ownership"
	// RefusalProblem: the API server refused a child the spec describes
	// well (a quota, an exhausted service IP range, another product's
	// admission webhook); the cluster's owner lifts it, fsmserve retries.
	RefusalProblem ProblemKind = "Refusal"
)

// Problem is a reason the predictor cannot be built, with a message that says
// what to fix.
type Problem struct {
	Kind    ProblemKind
	Reason  string
	Message string
}

// Workload is the Deployment distilled, read the one way every machine that
// runs a Deployment reads it.
type Workload = workload.Workload
