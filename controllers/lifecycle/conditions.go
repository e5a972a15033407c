package lifecycle

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/machines/engine"
)

// The kstatus conditions every kind with a lifecycle carries, so Flux, Argo
// CD and `kubectl wait` see a rollout finish or get stuck.
const (
	ReconcilingCondition common.ConditionType = "Reconciling"
	StalledCondition     common.ConditionType = "Stalled"
)

// KstatusConditions derives Reconciling (True in Progressing and Degraded
// states) and Stalled (True in Blocked states) from the state's kind, with
// the lifecycle's reason and message while True.
func KstatusConditions(kind engine.Kind, l *common.Lifecycle) []common.Condition {
	reconciling := kind == engine.Progressing || kind == engine.Degraded
	stalled := kind == engine.Blocked
	return []common.Condition{
		Explained(ReconcilingCondition, reconciling, l),
		Explained(StalledCondition, stalled, l),
	}
}

// Explained is a condition that is True exactly when v holds, carrying the
// lifecycle's reason and message only then.
func Explained(t common.ConditionType, v bool, l *common.Lifecycle) common.Condition {
	c := BoolCondition(t, v, "", "")
	if v {
		c.Reason, c.Message = l.Reason, l.Message
	}
	return c
}

// BoolCondition is an informational condition with the given truth.
func BoolCondition(t common.ConditionType, v bool, reason, message string) common.Condition {
	status := corev1.ConditionFalse
	if v {
		status = corev1.ConditionTrue
	}
	return common.Condition{Type: t, Status: status, Reason: reason, Message: message, Severity: common.ConditionSeverityInfo}
}
