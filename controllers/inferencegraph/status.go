package inferencegraph

import (
	"context"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/machines/engine"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
)

// deriveStatus recomputes status from the machine and what was observed. It is
// the only place status is written, in memory; persist writes it once.
func (sc *scope) deriveStatus(ctx context.Context, m *engine.Machine[machine.State, machine.Trigger, machine.Observation], obs machine.Observation) {
	st := &sc.ig.Status
	now := metav1.NewTime(sc.r.now())
	state := m.State()
	m.WriteLifecycle(ctx, st.Lifecycle)
	st.DeploymentMode = string(sc.mode)
	st.ObservedGeneration = sc.ig.Generation
	sc.setConditions(state, now)
	sc.setURL(state, obs)
	sort.Slice(st.Conditions, func(i, j int) bool { return st.Conditions[i].Type < st.Conditions[j].Type })
}

// setConditions writes Ready, Stopped, Reconciling and Stalled. Ready is True
// only while the router is available and runs the current graph (Ready) or
// keeps serving during a rollout of the next one (RollingOut); otherwise it
// carries the lifecycle's reason, which names a missing InferenceService.
func (sc *scope) setConditions(state machine.State, now metav1.Time) {
	st := &sc.ig.Status.Status
	l := sc.ig.Status.Lifecycle
	stopped := state == machine.Stopped
	st.SetCondition(boolCondition(v1alpha1.Stopped, stopped, reasonIf(stopped, machine.ReasonStopped), ""), now)
	ready := state == machine.Ready || state == machine.RollingOut
	readyCond := boolCondition(v1alpha1.Ready, ready, "", "")
	if !ready {
		readyCond.Reason, readyCond.Message = l.Reason, l.Message
	}
	st.SetCondition(readyCond, now)
	kind := machine.Machine.KindOf(state)
	reconciling := kind == engine.Progressing || kind == engine.Degraded
	st.SetCondition(boolCondition(v1alpha1.Reconciling, reconciling, reasonIf(reconciling, l.Reason), reasonIf(reconciling, l.Message)), now)
	stalled := kind == engine.Blocked
	st.SetCondition(boolCondition(v1alpha1.Stalled, stalled, reasonIf(stalled, l.Reason), reasonIf(stalled, l.Message)), now)
}

// setURL writes http://{domainTemplate(graph)} while the router Deployment is
// available (Available=True), and clears it otherwise and when stopped.
func (sc *scope) setURL(state machine.State, obs machine.Observation) {
	st := &sc.ig.Status
	switch {
	case state == machine.Deleting:
		return
	case state == machine.Stopped || !obs.Router.Serving || sc.host == "":
		st.URL = nil
	default:
		st.URL = common.NewURL("http://" + sc.host)
	}
}

func boolCondition(t common.ConditionType, v bool, reason, message string) common.Condition {
	status := corev1.ConditionFalse
	if v {
		status = corev1.ConditionTrue
	}
	return common.Condition{Type: t, Status: status, Reason: reason, Message: message, Severity: common.ConditionSeverityInfo}
}

func reasonIf(cond bool, reason string) string {
	if cond {
		return reason
	}
	return ""
}
