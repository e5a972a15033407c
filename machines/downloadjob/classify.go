package downloadjob

import "github.com/fsmserve/fsmserve/machines/engine"

// Classify maps what the agent observed in state s to the trigger it implies.
// Order matters: a download nobody wants any more is cancelled whatever its
// Job does, and a live Job is always adopted before anything is created.
func Classify(s State, o Observation) (Trigger, bool) {
	switch {
	case s == Cancelled:
		return "", false
	case !o.Wanted:
		return DownloadCancelled, true
	}
	switch s {
	case Recovering:
		return recoveringTrigger(o)
	case Pending:
		return engine.FirstOf(o.Job.Live(), JobAccepted, o.Problem.Set(), JobRejected)
	case JobCreated:
		if o.Job.Live() && o.Job.Running {
			return PodRunning, true
		}
		return jobOutcome(o.Job)
	case Downloading:
		return jobOutcome(o.Job)
	case Verifying:
		v := o.Verification
		return engine.FirstOf(v.Done && v.OK, FolderVerified, v.Done && !v.OK, VerificationFailed)
	case Downloaded:
		return engine.FirstOf(!o.Folder.Verified, RedownloadRequested, false, "")
	case WaitingToRetry:
		return engine.FirstOf(o.BackoffElapsed, BackoffElapsed, false, "")
	case Failed:
		return engine.FirstOf(o.RetryAllowed, RetryRequested, false, "")
	}
	return "", false
}

// recoveringTrigger re-derives the state from the Job and the disk.
func recoveringTrigger(o Observation) (Trigger, bool) {
	switch j := o.Job; {
	case j.Live():
		return JobAccepted, true
	case j.Succeeded:
		return JobSucceeded, true
	case j.Failed:
		return JobFailed, true
	case o.Folder.Verified:
		return FolderVerified, true
	}
	return Recovered, true
}

// jobOutcome reads a finished or vanished Job. A Job that vanished before it
// was seen finishing (deleted by hand, or by a short ttlSecondsAfterFinished)
// is judged by the folder it leaves behind.
func jobOutcome(j Job) (Trigger, bool) {
	switch {
	case !j.Exists:
		return JobGone, true
	case j.Succeeded:
		return JobSucceeded, true
	case j.Failed:
		return JobFailed, true
	}
	return "", false
}
