package apply

import (
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/fsmserve/fsmserve/steps/outcome"
)

// Outcome names what an apply's error means for the state: nothing (done,
// with changed), a child someone else controls (waiting, ChildNotOwned), a
// child the API server refuses (failed, with reason and the server's words;
// fix says what to change), or a transient error.
func Outcome(err error, changed bool, reason, what, fix string) outcome.Outcome {
	var notOwned *NotOwnedError
	switch {
	case err == nil:
		return outcome.OK(changed)
	case errors.As(err, &notOwned):
		o := outcome.Wait(ReasonChildNotOwned, notOwned.Error())
		o.Changed = changed
		return o
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err):
		o := outcome.Fail(reason, fmt.Sprintf("the API server rejected %s: %v; %s", what, err, fix))
		o.Changed = changed
		return o
	}
	o := outcome.Error(err)
	o.Changed = changed
	return o
}
