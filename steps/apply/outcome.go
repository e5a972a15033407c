package apply

import (
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/fsmserve/fsmserve/steps/outcome"
)

// ReasonRefused is the reason of every state that waits for the API server
// to accept a child it refused for a reason outside the spec.
const ReasonRefused = "RefusedByAPIServer"

// RefusedRetry is how soon a refused apply is tried again. Quotas, IP
// ranges and other admission webhooks are lifted by someone else, mostly
// without an event fsmserve watches; a retry refused again writes nothing.
const RefusedRetry = 5 * time.Second

// Outcome names what an apply's error means for the state: nothing (done,
// with changed), a child someone else controls (waiting, ChildNotOwned), a
// child the API server finds invalid (failed, with reason and the server's
// words; fix says what to change in the spec), a child it refuses for a
// reason outside the spec (waiting, RefusedByAPIServer, retried), or a
// transient error.
func Outcome(err error, changed bool, reason, what, fix string) outcome.Outcome {
	var notOwned *NotOwnedError
	var o outcome.Outcome
	switch {
	case err == nil:
		return outcome.OK(changed)
	case errors.As(err, &notOwned):
		o = outcome.Wait(ReasonChildNotOwned, notOwned.Error())
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err):
		o = outcome.Fail(reason, fmt.Sprintf("the API server rejected %s: %v; %s", what, err, fix))
	case Refusal(err):
		o = outcome.Wait(ReasonRefused, fmt.Sprintf("the API server refused %s: %v; fsmserve retries every %s", what, err, RefusedRetry)).After(RefusedRetry)
	default:
		o = outcome.Error(err)
	}
	o.Changed = changed
	return o
}

// Refusal reports whether the API server refused a write for a reason that
// neither the spec nor a retry right away fixes: a quota or another
// admission plugin or webhook (Forbidden), or a failed allocation such as
// an exhausted service IP range (an internal error that is not a timeout).
func Refusal(err error) bool {
	return apierrors.IsForbidden(err) || (apierrors.IsInternalError(err) && !apierrors.IsTimeout(err) && !apierrors.IsServerTimeout(err))
}
