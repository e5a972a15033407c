package engine

import (
	"errors"
	"fmt"
	"strings"
)

// NotPermittedError says a trigger is not permitted in the current state. In a
// level-triggered controller this is benign (the observation is already behind
// us); callers log it and carry on rather than count it as a failure.
type NotPermittedError struct {
	Machine     string
	State       string
	Trigger     string
	UnmetGuards []string
}

func (e *NotPermittedError) Error() string {
	if len(e.UnmetGuards) > 0 {
		return fmt.Sprintf("machine %s: trigger %s not permitted in state %s: guards not met: %s",
			e.Machine, e.Trigger, e.State, strings.Join(e.UnmetGuards, ", "))
	}
	return fmt.Sprintf("machine %s: trigger %s not permitted in state %s", e.Machine, e.Trigger, e.State)
}

// IsNotPermitted reports whether err is, or wraps, a NotPermittedError.
func IsNotPermitted(err error) bool {
	var np *NotPermittedError
	return errors.As(err, &np)
}

// HopLimitError says a reconcile fired MaxHops transitions without the
// observation settling; the object is requeued and the next reconcile continues.
type HopLimitError struct {
	Machine string
	Path    []string
}

func (e *HopLimitError) Error() string {
	return fmt.Sprintf("machine %s: %d transitions in one reconcile without settling: %s",
		e.Machine, MaxHops, strings.Join(e.Path, " -> "))
}

// DefinitionError reports a machine whose declaration is inconsistent at fire
// time (for example two guards of one trigger both holding). It is a bug in the
// machine, caught here so it never crashes the controller.
type DefinitionError struct {
	Machine string
	Problem string
}

func (e *DefinitionError) Error() string {
	return fmt.Sprintf("machine %s: inconsistent definition: %s", e.Machine, e.Problem)
}
