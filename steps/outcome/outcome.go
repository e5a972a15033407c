// Package outcome is what a step reports: done, waiting (with a reason),
// failed (with a reason), whether it wrote to the cluster, when it wants to
// run again, and a transient error. The lifecycle kit folds outcomes into the
// next observation, the reconcile's result and its spans; steps never reach
// into a controller's state to say so.
package outcome

import (
	"errors"
	"time"
)

// Status says where a step left its part of the world.
type Status int

const (
	// Done: the world matches what the step was asked for (or it had nothing to do).
	Done Status = iota
	// Waiting: the step did what it could; something it does not control must
	// happen first (a child owned by someone else, a name still held).
	Waiting
	// Failed: the step cannot succeed as asked (the API server refused it);
	// it will not until the spec or the world changes.
	Failed
)

func (s Status) String() string {
	switch s {
	case Waiting:
		return "Waiting"
	case Failed:
		return "Failed"
	}
	return "Done"
}

// Outcome is one step's report.
type Outcome struct {
	Status Status
	// Reason and Message say why a step waits or failed, in words a user can
	// act on; the machine's explanation quotes them.
	Reason  string
	Message string
	// Changed is true when the step wrote to the cluster.
	Changed bool
	// RequeueAfter asks for another reconcile after this long (0: none).
	RequeueAfter time.Duration
	// Err is a transient error (a conflict, a timeout): the reconcile is
	// retried with backoff and nothing about it is published as a state.
	Err error
}

// OK is a step that found nothing left to do, or did it.
func OK(changed bool) Outcome { return Outcome{Changed: changed} }

// Wait reports a step held up by something it does not control.
func Wait(reason, message string) Outcome {
	return Outcome{Status: Waiting, Reason: reason, Message: message}
}

// Fail reports a step that cannot succeed as asked.
func Fail(reason, message string) Outcome {
	return Outcome{Status: Failed, Reason: reason, Message: message}
}

// Error reports a transient error; a nil err is OK(false).
func Error(err error) Outcome { return Outcome{Err: err} }

// Then combines two parts of one step: the worse status wins (Failed over
// Waiting over Done, the first reason kept on a tie), writes and errors add
// up, and the sooner requeue wins.
func (o Outcome) Then(next Outcome) Outcome {
	out := o
	if next.Status > o.Status {
		out.Status, out.Reason, out.Message = next.Status, next.Reason, next.Message
	}
	out.Changed = o.Changed || next.Changed
	out.Err = errors.Join(o.Err, next.Err)
	out.RequeueAfter = sooner(o.RequeueAfter, next.RequeueAfter)
	return out
}

// After asks for another run after d.
func (o Outcome) After(d time.Duration) Outcome {
	o.RequeueAfter = sooner(o.RequeueAfter, d)
	return o
}

// Succeeded reports a step that is done and met no error.
func (o Outcome) Succeeded() bool { return o.Status == Done && o.Err == nil }

func sooner(a, b time.Duration) time.Duration {
	switch {
	case a == 0:
		return b
	case b == 0 || a < b:
		return a
	}
	return b
}
