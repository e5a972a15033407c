package localmodelcache

import (
	"context"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/machines/engine"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// deriveStatus recomputes status from the machine and what was observed. It
// is the only place status is written, in memory; persist writes it once.
func (sc *scope) deriveStatus(ctx context.Context, m *engine.Machine[machine.State, machine.Trigger, machine.Observation], _ machine.Observation) {
	st := sc.view.status
	state := m.State()
	m.WriteLifecycle(ctx, st.Lifecycle)
	st.ObservedGeneration = sc.view.obj.GetGeneration()
	st.NodeStatus = sc.nodeStatus()
	st.ModelCopies = localmodel.CopiesOf(st.NodeStatus)
	st.InferenceServices = sc.usersStatus()
	sc.setConditions(state, metav1.NewTime(sc.r.now()))
}

// setConditions: Ready while every Ready node has the model, and kstatus'
// Reconciling and Stalled from the state's kind, so `kubectl wait` and GitOps
// tools see a cache finish or get stuck.
func (sc *scope) setConditions(state machine.State, now metav1.Time) {
	st := &sc.view.status.Status
	l := sc.view.status.Lifecycle
	ready := state == machine.Ready
	st.SetCondition(condition(v1alpha1.Ready, ready, l.Reason, messageUnless(ready, l.Message)), now)
	kind := machine.Machine.KindOf(state)
	reconciling := kind == engine.Progressing || kind == engine.Degraded
	st.SetCondition(condition(v1alpha1.Reconciling, reconciling, reasonIf(reconciling, l.Reason), reasonIf(reconciling, l.Message)), now)
	stalled := kind == engine.Blocked
	st.SetCondition(condition(v1alpha1.Stalled, stalled, reasonIf(stalled, l.Reason), reasonIf(stalled, l.Message)), now)
	sort.Slice(st.Conditions, func(i, j int) bool { return st.Conditions[i].Type < st.Conditions[j].Type })
}

func condition(t common.ConditionType, v bool, reason, message string) common.Condition {
	status := corev1.ConditionFalse
	if v {
		status = corev1.ConditionTrue
	}
	return common.Condition{Type: t, Status: status, Reason: reason, Message: message, Severity: common.ConditionSeverityInfo}
}

func reasonIf(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}

func messageUnless(cond bool, s string) string { return reasonIf(!cond, s) }
