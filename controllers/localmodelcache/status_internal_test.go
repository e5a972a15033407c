package localmodelcache

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/machines/engine"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
)

func TestCacheConditions(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		state               machine.State
		kind                engine.Kind
		ready, reconciling  corev1.ConditionStatus
		stalled             corev1.ConditionStatus
		wantReadyMessage    bool
		readyReasonExpected string
	}{
		{machine.Ready, engine.Settled, corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionFalse, false, "Downloaded"},
		{machine.Downloading, engine.Progressing, corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionFalse, true, "Downloaded"},
		{machine.PartiallyFailed, engine.Degraded, corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionFalse, true, "Downloaded"},
		{machine.WaitingForNodeGroup, engine.Blocked, corev1.ConditionFalse, corev1.ConditionFalse, corev1.ConditionTrue, true, "Downloaded"},
	}
	for _, c := range cases {
		t.Run(string(c.state), func(t *testing.T) {
			l := &common.Lifecycle{State: string(c.state), Reason: "Downloaded", Message: "2 of 3 nodes have the model"}
			st := &common.Status{}
			setConditions(st, lifecycle.End[machine.State, machine.Observation]{
				State: c.state, Record: engine.StateRecord[machine.State]{Kind: c.kind}, Lifecycle: l, Now: now})
			for typ, want := range map[common.ConditionType]corev1.ConditionStatus{
				v1alpha1.Ready: c.ready, "Reconciling": c.reconciling, "Stalled": c.stalled} {
				if got := st.GetCondition(typ); got == nil || got.Status != want {
					t.Errorf("%s = %+v, want %s", typ, got, want)
				}
			}
			ready := st.GetCondition(v1alpha1.Ready)
			if (ready.Message != "") != c.wantReadyMessage || ready.Reason != c.readyReasonExpected {
				t.Errorf("Ready = %+v: a Ready cache carries no message, any other state the lifecycle's", ready)
			}
		})
	}
}
