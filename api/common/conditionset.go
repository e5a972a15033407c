package common

import (
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConditionSet is knative's "living" condition set: a happy condition (Ready)
// that is True exactly when every dependent condition is True. KServe's Ready is
// such a set over PredictorReady and IngressReady.
type ConditionSet struct {
	Happy      ConditionType
	Dependents []ConditionType
}

// NewConditionSet returns the living set with Ready as the happy condition.
func NewConditionSet(dependents ...ConditionType) ConditionSet {
	return ConditionSet{Happy: "Ready", Dependents: dependents}
}

// Recompute derives the happy condition from the dependents currently in s. A
// missing dependent counts as Unknown; the first False dependent (in declared
// order) lends its reason and message, else the first Unknown one.
func (cs ConditionSet) Recompute(s *Status, now metav1.Time) {
	happy := Condition{Type: cs.Happy, Status: corev1.ConditionTrue}
	var unknown *Condition
	for _, t := range cs.Dependents {
		c := s.GetCondition(t)
		switch {
		case c == nil:
			if unknown == nil {
				unknown = &Condition{Type: t, Status: corev1.ConditionUnknown, Reason: string(t) + "Missing"}
			}
		case c.Status == corev1.ConditionFalse:
			s.SetCondition(Condition{Type: cs.Happy, Status: corev1.ConditionFalse, Reason: c.Reason, Message: c.Message}, now)
			return
		case c.Status != corev1.ConditionTrue && unknown == nil:
			unknown = c
		}
	}
	if unknown != nil {
		happy = Condition{Type: cs.Happy, Status: corev1.ConditionUnknown, Reason: unknown.Reason, Message: unknown.Message}
	}
	s.SetCondition(happy, now)
}

// FalseConditions lists "Type: message" for every False condition, sorted, for
// messages such as the NotReady event.
func FalseConditions(s *Status) string {
	var out []string
	for _, c := range s.Conditions {
		if c.Status == corev1.ConditionFalse {
			out = append(out, string(c.Type)+": "+c.Message)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}
