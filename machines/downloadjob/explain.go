package downloadjob

import "fmt"

// Explain gives the reason and message recorded in the lifecycle block for
// being in state s. Every message names the model, because one LocalModelNode
// holds many; failure states take their reason from what failed.
func Explain(s State, o Observation) (string, string) {
	m, j := o.Model, o.Job
	switch s {
	case Pending:
		return ReasonPending, fmt.Sprintf("model %s: creating the download Job%s", m, attemptOf(o))
	case Recovering:
		return ReasonRecovering, fmt.Sprintf("model %s: the stored download state was not recognised; re-deriving it from the Job and the disk", m)
	case JobCreated:
		if j.PodWaiting != "" {
			return ReasonWaitingForPod, fmt.Sprintf("model %s: Job %s%s waits for its pod to run on the node: %s", m, j.Name, attemptOf(o), j.PodWaiting)
		}
		return ReasonWaitingForPod, fmt.Sprintf("model %s: Job %s%s waits for its pod to run on the node", m, j.Name, attemptOf(o))
	case Downloading:
		return ReasonDownloading, fmt.Sprintf("model %s: Job %s%s is downloading into %s", m, j.Name, attemptOf(o), o.Folder.Path)
	case Verifying:
		return ReasonVerifying, fmt.Sprintf("model %s: Job %s finished; checking that %s exists and is not empty", m, j.Name, o.Folder.Path)
	case Downloaded:
		return ReasonDownloaded, fmt.Sprintf("model %s: downloaded to %s", m, o.Folder.Path)
	case WaitingToRetry:
		f := LastFailure(o)
		return f.Reason, fmt.Sprintf("model %s: attempt %d of %d failed: %s; the next attempt starts %s", m, o.Attempt, o.MaxAttempts, f.Message, retryWhen(o))
	case Failed:
		return failedExplanation(o)
	case Cancelled:
		return ReasonCancelled, fmt.Sprintf("model %s: no longer in the node's spec; its download Job is deleted", m)
	}
	return string(s), ""
}

func failedExplanation(o Observation) (string, string) {
	f := LastFailure(o)
	if o.Problem.Set() && !o.Job.Exists {
		return f.Reason, fmt.Sprintf("model %s: %s; it is retried when what the Job is built from changes", o.Model, f.Message)
	}
	return f.Reason, fmt.Sprintf("model %s: the download failed %d of %d times, last: %s; delete the failed Job to retry (or let ttlSecondsAfterFinished remove it), or fix the source and it retries when the Job's inputs change",
		o.Model, o.Attempt, o.MaxAttempts, f.Message)
}

// LastFailure picks what failed, most specific first: this reconcile's
// verification, the failed Job, a problem building the Job, a Job that
// vanished, then the failure kept in status.
func LastFailure(o Observation) Problem {
	v, j := o.Verification, o.Job
	switch {
	case v.Done && !v.OK:
		return Problem{Reason: v.Reason, Message: v.Message}
	case j.Failed:
		return Problem{Reason: orDefault(j.Reason, ReasonDownloadFailed), Message: fmt.Sprintf("Job %s failed: %s", j.Name, orDefault(j.Message, "no message"))}
	case o.Problem.Set():
		return o.Problem
	case o.LastFailure.Set():
		return o.LastFailure
	}
	return Problem{Reason: ReasonDownloadFailed, Message: "the download failed"}
}

func attemptOf(o Observation) string {
	if o.Attempt == 0 {
		return ""
	}
	return fmt.Sprintf(" (attempt %d of %d)", o.Attempt, o.MaxAttempts)
}

func retryWhen(o Observation) string {
	if o.RetryIn == "" {
		return "now"
	}
	return "in " + o.RetryIn
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
