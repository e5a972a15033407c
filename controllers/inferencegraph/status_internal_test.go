package inferencegraph

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/machines/engine"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
)

var now = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

func endIn(s machine.State, kind engine.Kind, serving bool) lifecycle.End[machine.State, machine.Observation] {
	return lifecycle.End[machine.State, machine.Observation]{
		State: s, Record: engine.StateRecord[machine.State]{Kind: kind}, Now: now,
		Lifecycle:   &common.Lifecycle{State: string(s), Reason: "InferenceServiceNotFound", Message: "InferenceService a does not exist"},
		Observation: machine.Observation{Router: machine.Workload{Exists: true, Serving: serving}},
	}
}

func TestGraphConditions(t *testing.T) {
	cases := []struct {
		name                   string
		end                    lifecycle.End[machine.State, machine.Observation]
		ready, stopped, stalls corev1.ConditionStatus
		readyReason            string
	}{
		{"ready", endIn(machine.Ready, engine.Settled, true), corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionFalse, ""},
		{"a rollout keeps serving", endIn(machine.RollingOut, engine.Progressing, true), corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionFalse, ""},
		{"waiting names what is missing", endIn(machine.WaitingForInferenceService, engine.Progressing, false), corev1.ConditionFalse, corev1.ConditionFalse, corev1.ConditionFalse, "InferenceServiceNotFound"},
		{"a blocked graph stalls", endIn(machine.ChildConflict, engine.Blocked, false), corev1.ConditionFalse, corev1.ConditionFalse, corev1.ConditionTrue, "InferenceServiceNotFound"},
		{"stopped", endIn(machine.Stopped, engine.Settled, false), corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionFalse, "InferenceServiceNotFound"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &common.Status{}
			setConditions(st, c.end)
			check := func(typ common.ConditionType, want corev1.ConditionStatus) {
				if got := st.GetCondition(typ); got == nil || got.Status != want {
					t.Errorf("%s = %+v, want %s", typ, got, want)
				}
			}
			check(v1alpha1.Ready, c.ready)
			check(v1alpha1.Stopped, c.stopped)
			check("Stalled", c.stalls)
			if got := st.GetCondition(v1alpha1.Ready).Reason; got != c.readyReason {
				t.Errorf("Ready reason = %q, want %q", got, c.readyReason)
			}
		})
	}
}

func TestGraphURLFollowsTheRoutersAvailability(t *testing.T) {
	old := common.NewURL("http://g.example.com")
	cases := []struct {
		name    string
		end     lifecycle.End[machine.State, machine.Observation]
		host    string
		before  *common.URL
		wantURL string
	}{
		{"serving", endIn(machine.Ready, engine.Settled, true), "g.example.com", nil, "http://g.example.com"},
		{"router not available", endIn(machine.DeployingRouter, engine.Progressing, false), "g.example.com", old, ""},
		{"no host rendered", endIn(machine.Ready, engine.Settled, true), "", old, ""},
		{"stopped", endIn(machine.Stopped, engine.Settled, true), "g.example.com", old, ""},
		{"deleting leaves it", endIn(machine.Deleting, engine.Final, false), "g.example.com", old, "http://g.example.com"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &v1alpha1.InferenceGraphStatus{URL: c.before}
			setURL(st, c.end, c.host)
			got := ""
			if st.URL != nil {
				got = st.URL.String()
			}
			if got != c.wantURL {
				t.Errorf("url = %q, want %q", got, c.wantURL)
			}
		})
	}
}
