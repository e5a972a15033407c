// Package downloadjob is the lifecycle of the download Job of one model on one
// node, as an explicit state machine: a Job is created, its pod runs, the
// model folder is verified on the node's disk, and a failed attempt is retried
// after a backoff a bounded number of times. It is pure: the node agent
// observes the Job and the disk, this package decides.
package downloadjob

// State is where the download of one model onto one node is. Names answer
// what a user asks: is a Job there? is it downloading? is the folder checked?
// is it waiting to try again? did it give up, and why?
type State string

const (
	// Active is the superstate of every state of a download that is still wanted.
	Active State = "Active"
	// Pending: the download is wanted and no Job runs for it yet.
	Pending State = "Pending"
	// Recovering: the stored state was not recognised; re-deriving it.
	Recovering State = "Recovering"
	// JobCreated: the Job exists; its pod is not running yet.
	JobCreated State = "JobCreated"
	// Downloading: the Job's pod is running.
	Downloading State = "Downloading"
	// Verifying: the Job finished; the agent checks the folder on disk.
	Verifying State = "Verifying"
	// Downloaded: the folder is on disk and not empty.
	Downloaded State = "Downloaded"
	// WaitingToRetry: an attempt failed; the next starts after a backoff.
	WaitingToRetry State = "WaitingToRetry"
	// Failed: every attempt failed, or the Job cannot be created at all.
	Failed State = "Failed"
	// Cancelled: the model left the node's spec; its Job is deleted.
	Cancelled State = "Cancelled"
)

// Trigger is an observation that moves the machine.
type Trigger string

const (
	JobAccepted         Trigger = "JobAccepted"
	JobRejected         Trigger = "JobRejected"
	PodRunning          Trigger = "PodRunning"
	JobSucceeded        Trigger = "JobSucceeded"
	JobFailed           Trigger = "JobFailed"
	JobGone             Trigger = "JobGone"
	FolderVerified      Trigger = "FolderVerified"
	VerificationFailed  Trigger = "VerificationFailed"
	BackoffElapsed      Trigger = "BackoffElapsed"
	RetryRequested      Trigger = "RetryRequested"
	RedownloadRequested Trigger = "RedownloadRequested"
	Recovered           Trigger = "Recovered"
	DownloadCancelled   Trigger = "DownloadCancelled"
	RecoveryStarted     Trigger = "RecoveryStarted"
)

// MachineName is the machine's name in the lifecycle block and in
// `fsmserve machines graph`.
const MachineName = "downloadjob"

// Reasons recorded for states whose reason does not come from the
// observation. Failure reasons come from the Job (BackoffLimitExceeded,
// DeadlineExceeded), the verification (ModelFolderMissing, ModelFolderEmpty)
// or the problem that stops the Job from being built (JobRejected,
// NodeGroupUnknown...), so they say exactly what went wrong.
const (
	ReasonPending        = "DownloadPending"
	ReasonRecovering     = "RecoveringUnknownState"
	ReasonWaitingForPod  = "WaitingForPod"
	ReasonDownloading    = "Downloading"
	ReasonVerifying      = "VerifyingFolder"
	ReasonDownloaded     = "ModelDownloaded"
	ReasonCancelled      = "DownloadCancelled"
	ReasonJobDeleted     = "JobDeleted"
	ReasonFolderMissing  = "ModelFolderMissing"
	ReasonFolderEmpty    = "ModelFolderEmpty"
	ReasonDownloadFailed = "DownloadFailed"
)
