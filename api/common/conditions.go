package common

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConditionType is the type of a status condition, such as Ready.
type ConditionType string

// ConditionSeverity says how a False condition should be read. KServe (through
// knative) leaves it empty for conditions that gate Ready.
type ConditionSeverity string

const (
	// ConditionSeverityError marks a False condition that blocks readiness.
	ConditionSeverityError ConditionSeverity = ""
	// ConditionSeverityWarning marks an advisory False condition.
	ConditionSeverityWarning ConditionSeverity = "Warning"
	// ConditionSeverityInfo marks an informational condition.
	ConditionSeverityInfo ConditionSeverity = "Info"
)

// Condition is one observation about an object. Its JSON shape is knative's
// apis.Condition, which is what KServe writes.
type Condition struct {
	// Type of condition.
	// +required
	Type ConditionType `json:"type"`
	// Status of the condition, one of True, False, Unknown.
	// +required
	Status corev1.ConditionStatus `json:"status"`
	// Severity with which to treat failures of this type of condition.
	// +optional
	Severity ConditionSeverity `json:"severity,omitempty"`
	// LastTransitionTime is the last time the condition changed status.
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	// Reason is a one-word CamelCase reason for the condition's last transition.
	// +optional
	Reason string `json:"reason,omitempty"`
	// Message is a human-readable message with details about the transition.
	// +optional
	Message string `json:"message,omitempty"`
}

// IsTrue reports whether the condition is present and True.
func (c *Condition) IsTrue() bool { return c != nil && c.Status == corev1.ConditionTrue }

// IsFalse reports whether the condition is present and False.
func (c *Condition) IsFalse() bool { return c != nil && c.Status == corev1.ConditionFalse }

// Conditions is a list of conditions, at most one per type.
// +listType=map
// +listMapKey=type
type Conditions []Condition

// Status is knative's duck v1 Status: the fields every KServe kind's status starts with.
type Status struct {
	// ObservedGeneration is the latest generation observed by the controller.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions the latest available observations of the resource's state.
	// +optional
	Conditions Conditions `json:"conditions,omitempty"`
	// Annotations is additional status fields for the resource.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// GetCondition returns the condition of the given type, or nil.
func (s *Status) GetCondition(t ConditionType) *Condition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// IsConditionTrue reports whether the condition of type t is True.
func (s *Status) IsConditionTrue(t ConditionType) bool { return s.GetCondition(t).IsTrue() }

// SetCondition stores c, replacing any condition of the same type. The
// transition time moves only when the status changes, as knative does, so a
// reconcile that observes the same thing again does not rewrite history; when
// nothing at all changed the stored condition is left untouched.
func (s *Status) SetCondition(c Condition, now metav1.Time) {
	old := s.GetCondition(c.Type)
	if old != nil {
		if old.Status == c.Status && old.Reason == c.Reason && old.Message == c.Message && old.Severity == c.Severity {
			return
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		} else {
			c.LastTransitionTime = now
		}
		*old = c
		return
	}
	c.LastTransitionTime = now
	s.Conditions = append(s.Conditions, c)
}

// RemoveCondition deletes the condition of type t, if present.
func (s *Status) RemoveCondition(t ConditionType) {
	kept := s.Conditions[:0]
	for _, c := range s.Conditions {
		if c.Type != t {
			kept = append(kept, c)
		}
	}
	s.Conditions = kept
}
