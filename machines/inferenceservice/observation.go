package inferenceservice

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
)

// Problem is a reason the predictor cannot be built, with a message that says
// what to fix.
type Problem struct {
	Kind    ProblemKind
	Reason  string
	Message string
}

// Workload is the state of the predictor Deployment, distilled from its
// conditions and replica counts.
type Workload struct {
	// Exists is true when the Deployment exists.
	Exists bool
	// Serving is true when at least the minimum replicas are available (the
	// Deployment's Available condition).
	Serving bool
	// UpToDate is true when the Deployment has observed its latest spec and
	// every replica runs it: the current version is fully rolled out.
	UpToDate bool
	// Failed is true on ProgressDeadlineExceeded or ReplicaFailure.
	Failed bool
	// Reason and Message explain a failure or a loss of availability.
	Reason  string
	Message string
	// Available and Desired replica counts, for messages.
	Available int32
	Desired   int32
}

// Complete reports whether the current version is rolled out and serving.
func (w Workload) Complete() bool { return w.Exists && w.Serving && w.UpToDate && !w.Failed }
