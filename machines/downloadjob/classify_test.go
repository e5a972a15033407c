package downloadjob

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var (
	wanted    = Observation{Model: "llama", Wanted: true, Attempt: 1, MaxAttempts: 3}
	liveJob   = Job{Name: "j", Exists: true, Attempt: 1}
	running   = Job{Name: "j", Exists: true, Running: true, Attempt: 1}
	succeeded = Job{Name: "j", Exists: true, Succeeded: true, Attempt: 1}
	failedJob = Job{Name: "j", Exists: true, Failed: true, Reason: "BackoffLimitExceeded", Message: "Job has reached the specified backoff limit", Attempt: 1}
)

func with(mut func(*Observation)) Observation {
	o := wanted
	mut(&o)
	return o
}

func TestClassify(t *testing.T) {
	cases := []struct {
		why   string
		state State
		obs   Observation
		want  Trigger
	}{
		{"a download nobody wants is cancelled", Downloading, with(func(o *Observation) { o.Wanted, o.Job = false, running }), DownloadCancelled},
		{"a cancelled download stays cancelled", Cancelled, with(func(o *Observation) { o.Job = running }), ""},
		{"pending waits for its step to create the Job", Pending, wanted, ""},
		{"a live Job found by labels is adopted, never duplicated", Pending, with(func(o *Observation) { o.Job = running }), JobAccepted},
		{"a live Job wins over a problem building a new one", Pending, with(func(o *Observation) { o.Job, o.Problem = liveJob, Problem{Reason: "NodeGroupUnknown"} }), JobAccepted},
		{"a Job that cannot be built fails at once", Pending, with(func(o *Observation) { o.Problem = Problem{Reason: "NodeGroupUnknown"} }), JobRejected},
		{"a finished predecessor does not count as created", Pending, with(func(o *Observation) { o.Job = failedJob }), ""},
		{"a running pod means downloading", JobCreated, with(func(o *Observation) { o.Job = running }), PodRunning},
		{"a Job not yet running waits", JobCreated, with(func(o *Observation) { o.Job = liveJob }), ""},
		{"a Job can succeed before its pod was seen running", JobCreated, with(func(o *Observation) { o.Job = succeeded }), JobSucceeded},
		{"success goes to verification", Downloading, with(func(o *Observation) { o.Job = succeeded }), JobSucceeded},
		{"a failed Job fails the attempt", Downloading, with(func(o *Observation) { o.Job = failedJob }), JobFailed},
		{"a vanished Job is judged by its folder", Downloading, wanted, JobGone},
		{"verification waits for its step", Verifying, with(func(o *Observation) { o.Folder.Verified = true }), ""},
		{"a verified folder is downloaded", Verifying, with(func(o *Observation) { o.Verification = Verification{Done: true, OK: true} }), FolderVerified},
		{"a missing folder fails the attempt", Verifying, with(func(o *Observation) { o.Verification = Verification{Done: true} }), VerificationFailed},
		{"downloaded stays while the folder is there", Downloaded, with(func(o *Observation) { o.Folder.Verified = true }), ""},
		{"a folder deleted outside fsmserve is downloaded again", Downloaded, wanted, RedownloadRequested},
		{"the backoff holds the retry", WaitingToRetry, with(func(o *Observation) { o.Job = failedJob }), ""},
		{"the elapsed backoff starts the next attempt", WaitingToRetry, with(func(o *Observation) { o.BackoffElapsed = true }), BackoffElapsed},
		{"failed stays failed until a retry is allowed", Failed, with(func(o *Observation) { o.Job = failedJob }), ""},
		{"deleting the failed Job retries", Failed, with(func(o *Observation) { o.RetryAllowed = true }), RetryRequested},
		{"recovery adopts a live Job", Recovering, with(func(o *Observation) { o.Job = liveJob }), JobAccepted},
		{"recovery verifies a finished Job", Recovering, with(func(o *Observation) { o.Job = succeeded }), JobSucceeded},
		{"recovery counts a failed Job", Recovering, with(func(o *Observation) { o.Job = failedJob }), JobFailed},
		{"recovery keeps a folder already there", Recovering, with(func(o *Observation) { o.Folder.Verified = true }), FolderVerified},
		{"recovery with nothing found starts over", Recovering, wanted, Recovered},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, ok := Classify(c.state, c.obs)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.want != "", ok)
		})
	}
}

func TestFailedAttemptsRetryUntilTheLast(t *testing.T) {
	cases := []struct {
		attempt int
		want    State
	}{{1, WaitingToRetry}, {2, WaitingToRetry}, {3, Failed}, {4, Failed}}
	for _, c := range cases {
		m := Definition.New(string(Downloading), func() time.Time { return time.Unix(0, 0) })
		obs := with(func(o *Observation) { o.Job, o.Attempt = failedJob, c.attempt })
		_, err := m.Run(context.Background(), obs, nil)
		assert.NoError(t, err)
		assert.Equal(t, c.want, m.State(), "attempt %d of 3", c.attempt)
	}
}

// TestAdoptingARunningJobTakesTwoHops is the agent restart: a fresh machine
// at Pending finds the Job by its labels and never creates another.
func TestAdoptingARunningJobTakesTwoHops(t *testing.T) {
	m := Definition.New("", func() time.Time { return time.Unix(0, 0) })
	created := false
	step := func(_ context.Context, s State, o Observation) Observation {
		if s == Pending && !o.Job.Live() {
			created = true
		}
		return o
	}
	_, err := m.Run(context.Background(), with(func(o *Observation) { o.Job = running }), step)
	assert.NoError(t, err)
	assert.Equal(t, Downloading, m.State())
	assert.False(t, created, "Pending's step never ran on a path that already had a live Job")
}

func TestExplainNamesModelAndFailure(t *testing.T) {
	reason, msg := Explain(WaitingToRetry, with(func(o *Observation) { o.Job, o.RetryIn = failedJob, "20s" }))
	assert.Equal(t, "BackoffLimitExceeded", reason)
	assert.Contains(t, msg, "model llama")
	assert.Contains(t, msg, "attempt 1 of 3")
	assert.Contains(t, msg, "in 20s")
	reason, msg = Explain(Failed, with(func(o *Observation) { o.Problem = Problem{Reason: "NodeGroupUnknown", Message: "no node group"} }))
	assert.Equal(t, "NodeGroupUnknown", reason)
	assert.Contains(t, msg, "no node group")
	reason, _ = Explain(Failed, with(func(o *Observation) {
		o.Verification = Verification{Done: true, Reason: ReasonFolderMissing, Message: "missing"}
	}))
	assert.Equal(t, ReasonFolderMissing, reason)
	reason, _ = Explain(Failed, with(func(o *Observation) { o.LastFailure = Problem{Reason: "DeadlineExceeded", Message: "x"} }))
	assert.Equal(t, "DeadlineExceeded", reason, "the failure kept in status explains a Failed state once the Job is gone")
	for _, st := range Definition.States {
		if st.State == Active {
			continue
		}
		reason, msg := Explain(st.State, wanted)
		assert.NotEmpty(t, reason, st.State)
		assert.Contains(t, msg, "llama", st.State)
	}
}

func TestJobCreatedSaysWhatHoldsThePod(t *testing.T) {
	_, quiet := Explain(JobCreated, with(func(o *Observation) { o.Job = Job{Name: "llama-n1", Exists: true} }))
	assert.NotContains(t, quiet, "pod llama")
	reason, msg := Explain(JobCreated, with(func(o *Observation) {
		o.Job = Job{Name: "llama-n1", Exists: true, PodWaiting: "pod llama-n1-x: not scheduled (Unschedulable): unbound claim"}
	}))
	assert.Equal(t, ReasonWaitingForPod, reason)
	assert.Contains(t, msg, "waits for its pod to run on the node: pod llama-n1-x: not scheduled (Unschedulable): unbound claim")
}
