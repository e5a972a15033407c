package lifecycle

import (
	"time"

	"github.com/fsmserve/fsmserve/machines/engine"
)

// Record is one transition ready to publish.
type Record struct {
	From, To, Trigger string
	At                time.Time
	Reason, Message   string
	// Failing marks a failure edge (into a Degraded or Blocked state), published
	// as a Warning.
	Failing bool
}

// EventReason is the Event reason for this edge: the specific failure reason
// on failure edges (RuntimeNotRecognized, ProgressDeadlineExceeded...), the
// trigger otherwise, so no two kinds of edge share a catch-all reason.
func (r Record) EventReason() string {
	if r.Failing && r.Reason != "" {
		return r.Reason
	}
	return r.Trigger
}

// Records converts a machine's journal into publishable records.
func Records[S ~string, T ~string, O any](m *engine.Machine[S, T, O]) []Record {
	spec := m.Spec()
	var out []Record
	for _, t := range m.Journal() {
		out = append(out, Record{
			From: string(t.From), To: string(t.To), Trigger: string(t.Trigger), At: t.At,
			Reason: t.Reason, Message: t.Message, Failing: spec.KindOf(t.To).Failing(),
		})
	}
	return out
}
