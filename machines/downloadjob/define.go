package downloadjob

import "github.com/fsmserve/fsmserve/machines/engine"

// Define declares the transitions. Cancellation is declared once on Active;
// a failed attempt goes to WaitingToRetry while attempts are left and to
// Failed when they are used up (the guards choose).
func Define(b *engine.Builder[State, Trigger, Observation]) {
	b.Configure(Active).
		Permit(DownloadCancelled, Cancelled)
	b.Configure(Pending).SubstateOf(Active).
		Permit(JobAccepted, JobCreated).
		Permit(JobRejected, Failed)
	b.Configure(Recovering).SubstateOf(Active).
		Permit(Recovered, Pending).
		Permit(JobAccepted, JobCreated).
		Permit(JobSucceeded, Verifying).
		Permit(FolderVerified, Downloaded)
	b.Configure(JobCreated).SubstateOf(Active).
		Permit(PodRunning, Downloading)
	b.Configure(Downloading).SubstateOf(Active)
	for _, s := range []State{JobCreated, Downloading} {
		b.Configure(s).
			Permit(JobSucceeded, Verifying).
			Permit(JobGone, Verifying)
	}
	for _, s := range []State{Recovering, JobCreated, Downloading} {
		b.Configure(s).
			Permit(JobFailed, WaitingToRetry, attemptsLeft).
			Permit(JobFailed, Failed, noAttemptsLeft)
	}
	b.Configure(Verifying).SubstateOf(Active).
		Permit(FolderVerified, Downloaded).
		Permit(VerificationFailed, WaitingToRetry, attemptsLeft).
		Permit(VerificationFailed, Failed, noAttemptsLeft)
	b.Configure(Downloaded).SubstateOf(Active).
		Permit(RedownloadRequested, Pending)
	b.Configure(WaitingToRetry).SubstateOf(Active).
		Permit(BackoffElapsed, Pending)
	b.Configure(Failed).SubstateOf(Active).
		Permit(RetryRequested, Pending)
	b.Configure(Cancelled)
}

// attemptsLeft holds when the attempt that just failed was not the last one.
func attemptsLeft(o Observation) bool {
	return o.Attempt < o.MaxAttempts
}

// noAttemptsLeft holds when the attempt that just failed was the last one.
func noAttemptsLeft(o Observation) bool {
	return o.Attempt >= o.MaxAttempts
}
