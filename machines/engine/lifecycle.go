package engine

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
)

// WriteLifecycle records the machine's state, the transitions of this
// reconcile, the explanation of the current state and what it waits for in l.
// It changes only l, in memory; the caller persists status once.
func (m *Machine[S, T, O]) WriteLifecycle(ctx context.Context, l *common.Lifecycle) {
	l.Machine = m.spec.Name
	for _, t := range m.journal {
		l.Record(common.LifecycleTransition{
			From: t.From, To: t.To, Trigger: t.Trigger,
			At: metav1.NewTime(t.At), Reason: t.Reason,
		})
	}
	if n := len(m.journal); n > 0 {
		last := m.journal[n-1]
		l.PreviousState = last.From
		l.Trigger = last.Trigger
		at := metav1.NewTime(last.At)
		l.EnteredAt = &at
	} else if l.EnteredAt == nil || l.State != string(m.state) {
		at := metav1.NewTime(m.now())
		l.EnteredAt = &at
	}
	l.State = string(m.state)
	l.Reason, l.Message = m.spec.Explain(m.state, m.obs)
	l.WaitingFor = m.WaitingFor(ctx)
}
