package downloadjob

// Observation is everything the agent saw in one reconcile that the machine
// decides on. It is a plain value: building it is the agent's job.
type Observation struct {
	// Model is the model's key in LocalModelNode status (name, or
	// namespace/name for a namespace cache), for messages.
	Model string
	// Wanted is true while the node cache wants the model downloaded.
	Wanted bool
	// Job is the download Job found by its labels, if any.
	Job Job
	// Problem stops the Job from being built or created (no node group, an
	// invalid storage container, a Job the API server rejects).
	Problem Problem
	// Folder is the model folder as found on disk at the start of the reconcile.
	Folder Folder
	// Verification is the outcome of checking the folder after the Job
	// finished; only the Verifying state's step sets it.
	Verification Verification
	// Attempt is the number of the current (or last) attempt of this round,
	// 1-based; 0 before the first Job.
	Attempt int
	// MaxAttempts bounds the attempts of one round.
	MaxAttempts int
	// BackoffElapsed is true once the wait after a failed attempt is over.
	BackoffElapsed bool
	// RetryIn says how long the backoff still runs, for messages ("20s").
	RetryIn string
	// RetryAllowed is true when a failed download may start a new round: the
	// failed Job was deleted, or what the Job is built from changed.
	RetryAllowed bool
	// LastFailure is the failure recorded for this round, kept in status, so
	// messages stay exact after the failed Job is gone.
	LastFailure Problem
}

// Job is the download Job distilled from its status.
type Job struct {
	Name string
	// Exists is true when a Job of this model and node exists.
	Exists bool
	// Running is true once its pod runs (status.ready > 0).
	Running bool
	// Succeeded and Failed are the Job's terminal conditions.
	Succeeded bool
	Failed    bool
	// Reason and Message explain a failure, from the Failed condition.
	Reason  string
	Message string
	// Attempt is the attempt number the Job carries in its labels.
	Attempt int
	// PodWaiting says why the Job's pod does not run yet (unschedulable, an
	// image that does not pull), in the scheduler's or kubelet's words.
	PodWaiting string
}

// Live reports whether the Job exists and has not finished.
func (j Job) Live() bool { return j.Exists && !j.Succeeded && !j.Failed }

// Problem is a reason, with a message that says what to fix.
type Problem struct {
	Reason  string
	Message string
}

// Set reports whether there is a problem.
func (p Problem) Set() bool { return p.Reason != "" }

// Folder is the model folder on the node: {modelsRoot}/models/{storageKey}.
type Folder struct {
	Path string
	// Verified is true when the folder exists and is not empty.
	Verified bool
}

// Verification is the result of checking the folder once the Job finished.
type Verification struct {
	Done bool
	OK   bool
	// Reason and Message say why the folder failed the check.
	Reason  string
	Message string
}
