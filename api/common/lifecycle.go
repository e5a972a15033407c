package common

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// MaxLifecycleHistory bounds Lifecycle.History so status stays small.
const MaxLifecycleHistory = 5

// Lifecycle is the state of an object's lifecycle machine as a user reads it in
// `kubectl describe`: where it is, how it got there, why, and what would move it
// on. The machine's state is the only field the controller reads back for
// decisions; everything else is a record for people.
type Lifecycle struct {
	// Machine names the state machine, e.g. inferenceservice.
	Machine string `json:"machine"`
	// State is the machine's current state.
	State string `json:"state"`
	// PreviousState is the state before the last transition.
	// +optional
	PreviousState string `json:"previousState,omitempty"`
	// Trigger is the trigger of the last transition.
	// +optional
	Trigger string `json:"trigger,omitempty"`
	// EnteredAt is when the machine entered State.
	// +optional
	EnteredAt *metav1.Time `json:"enteredAt,omitempty"`
	// Reason is a CamelCase reason for being in State, e.g. RuntimeNotRecognized.
	// +optional
	Reason string `json:"reason,omitempty"`
	// Message says what is happening and, when stuck, what to fix.
	// +optional
	Message string `json:"message,omitempty"`
	// WaitingFor lists the triggers that could move the machine on from State.
	// +optional
	WaitingFor []string `json:"waitingFor,omitempty"`
	// TraceID is the OpenTelemetry trace of the current episode; open it in Jaeger.
	// +optional
	TraceID string `json:"traceID,omitempty"`
	// History holds the last transitions, oldest first.
	// +optional
	History []LifecycleTransition `json:"history,omitempty"`
	// Episode is the tracing episode this lifecycle is in.
	// +optional
	Episode *LifecycleEpisode `json:"episode,omitempty"`
}

// LifecycleTransition records one transition of a lifecycle machine.
type LifecycleTransition struct {
	// From is the source state.
	From string `json:"from"`
	// To is the destination state.
	To string `json:"to"`
	// Trigger is what fired the transition.
	Trigger string `json:"trigger"`
	// At is when the transition happened.
	At metav1.Time `json:"at"`
	// Reason is the reason recorded with the destination state.
	// +optional
	Reason string `json:"reason,omitempty"`
}

// LifecycleEpisode is one journey of the machine from a settled state to the
// next; all reconciles of an episode share one trace.
type LifecycleEpisode struct {
	// Generation is the object generation the episode works on.
	Generation int64 `json:"generation"`
	// StartedAt is when the episode began.
	StartedAt metav1.Time `json:"startedAt"`
	// TraceParent is the W3C traceparent of the episode's root span.
	TraceParent string `json:"traceParent"`
	// Settled is true once the machine reached a settled state and the root span
	// was published.
	// +optional
	Settled bool `json:"settled,omitempty"`
}

// Record appends a transition to the history, keeping the newest
// MaxLifecycleHistory entries.
func (l *Lifecycle) Record(t LifecycleTransition) {
	l.History = append(l.History, t)
	if n := len(l.History); n > MaxLifecycleHistory {
		l.History = append([]LifecycleTransition(nil), l.History[n-MaxLifecycleHistory:]...)
	}
}
