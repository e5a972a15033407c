package common

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	t1 = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	t2 = metav1.NewTime(t1.Add(time.Minute))
)

func TestSetConditionMovesTransitionTimeOnlyOnStatusChange(t *testing.T) {
	var s Status
	s.SetCondition(Condition{Type: "A", Status: corev1.ConditionFalse, Reason: "R1"}, t1)
	s.SetCondition(Condition{Type: "A", Status: corev1.ConditionFalse, Reason: "R2"}, t2)
	if c := s.GetCondition("A"); c.LastTransitionTime != t1 || c.Reason != "R2" {
		t.Fatalf("same status, new reason: want time kept and reason updated, got %+v", c)
	}
	s.SetCondition(Condition{Type: "A", Status: corev1.ConditionTrue}, t2)
	if c := s.GetCondition("A"); c.LastTransitionTime != t2 || !c.IsTrue() {
		t.Fatalf("status change: want new time, got %+v", c)
	}
	if len(s.Conditions) != 1 {
		t.Fatalf("one condition per type, got %d", len(s.Conditions))
	}
	s.RemoveCondition("A")
	if s.GetCondition("A") != nil {
		t.Fatal("condition not removed")
	}
}

func TestReadyIsTheConjunctionOfItsDependents(t *testing.T) {
	set := NewConditionSet("PredictorReady", "IngressReady")
	cases := []struct {
		why        string
		predictor  corev1.ConditionStatus
		ingress    corev1.ConditionStatus
		want       corev1.ConditionStatus
		wantReason string
	}{
		{"both true", corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionTrue, ""},
		{"a false dependent lends its reason", corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionFalse, "PredictorReason"},
		{"false beats unknown", corev1.ConditionUnknown, corev1.ConditionFalse, corev1.ConditionFalse, "IngressReason"},
		{"unknown without false", corev1.ConditionUnknown, corev1.ConditionTrue, corev1.ConditionUnknown, "PredictorReason"},
		{"missing counts as unknown", "", corev1.ConditionTrue, corev1.ConditionUnknown, "PredictorReadyMissing"},
	}
	for _, c := range cases {
		var s Status
		if c.predictor != "" {
			s.SetCondition(Condition{Type: "PredictorReady", Status: c.predictor, Reason: "PredictorReason"}, t1)
		}
		s.SetCondition(Condition{Type: "IngressReady", Status: c.ingress, Reason: "IngressReason"}, t1)
		set.Recompute(&s, t1)
		ready := s.GetCondition("Ready")
		if ready.Status != c.want || ready.Reason != c.wantReason {
			t.Errorf("%s: got %s/%s, want %s/%s", c.why, ready.Status, ready.Reason, c.want, c.wantReason)
		}
	}
}

func TestFalseConditionsListsWhatIsWrong(t *testing.T) {
	var s Status
	s.SetCondition(Condition{Type: "B", Status: corev1.ConditionFalse, Message: "b broke"}, t1)
	s.SetCondition(Condition{Type: "A", Status: corev1.ConditionFalse, Message: "a broke"}, t1)
	s.SetCondition(Condition{Type: "C", Status: corev1.ConditionTrue}, t1)
	if got := FalseConditions(&s); got != "A: a broke; B: b broke" {
		t.Fatalf("got %q", got)
	}
}

func TestURLHelpers(t *testing.T) {
	if NewURL("") != nil {
		t.Fatal("empty URL must be nil")
	}
	var nilURL *URL
	if nilURL.String() != "" || NewURL("http://x").String() != "http://x" {
		t.Fatal("URL String")
	}
}
