package kubesim

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The status changes below write what the Job controller would. The API
// server checks Job status transitions (a finished Job needs its interim
// condition first, a finished Job cannot run again), so a scenario plays them
// in a real Job's order.

// JobRunning: the Job started and its pods are running and ready.
func JobRunning(j *batchv1.Job, now metav1.Time) {
	active := int32(1)
	if j.Spec.Parallelism != nil {
		active = *j.Spec.Parallelism
	}
	ensureJobStart(j, now)
	j.Status.Active = active
	j.Status.Ready = &active
}

// JobSucceeded: every completion succeeded.
func JobSucceeded(j *batchv1.Job, now metav1.Time) {
	completions := int32(1)
	if j.Spec.Completions != nil {
		completions = *j.Spec.Completions
	}
	ensureJobStart(j, now)
	zero := int32(0)
	j.Status.Active, j.Status.Ready, j.Status.Terminating = 0, &zero, &zero
	j.Status.Succeeded = completions
	j.Status.CompletionTime = &now
	message := "Reached expected number of succeeded pods"
	setJobCondition(j, batchv1.JobSuccessCriteriaMet, batchv1.JobReasonCompletionsReached, message, now)
	setJobCondition(j, batchv1.JobComplete, batchv1.JobReasonCompletionsReached, message, now)
}

// JobFailed: the Job ran out of retries (or failed for f.Reason).
// JobFailure says how a Job fails.
type JobFailure struct {
	// Reason of Failed; BackoffLimitExceeded by default.
	Reason string
	// Message of Failed.
	Message string
}

func JobFailed(j *batchv1.Job, f JobFailure, now metav1.Time) {
	backoffLimit := int32(6)
	if j.Spec.BackoffLimit != nil {
		backoffLimit = *j.Spec.BackoffLimit
	}
	reason, message := f.Reason, f.Message
	if reason == "" {
		reason = batchv1.JobReasonBackoffLimitExceeded
	}
	if message == "" {
		message = "Job has reached the specified backoff limit"
	}
	ensureJobStart(j, now)
	zero := int32(0)
	j.Status.Active, j.Status.Ready, j.Status.Terminating = 0, &zero, &zero
	j.Status.Failed = backoffLimit + 1
	setJobCondition(j, batchv1.JobFailureTarget, reason, message, now)
	setJobCondition(j, batchv1.JobFailed, reason, message, now)
}

func ensureJobStart(j *batchv1.Job, now metav1.Time) {
	if j.Status.StartTime == nil {
		j.Status.StartTime = &now
	}
}

func setJobCondition(j *batchv1.Job, t batchv1.JobConditionType, reason, message string, now metav1.Time) {
	next := batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue, Reason: reason, Message: message,
		LastProbeTime: now, LastTransitionTime: now}
	for i, c := range j.Status.Conditions {
		if c.Type == t {
			if c.Status == next.Status {
				next.LastTransitionTime = c.LastTransitionTime
			}
			j.Status.Conditions[i] = next
			return
		}
	}
	j.Status.Conditions = append(j.Status.Conditions, next)
}
