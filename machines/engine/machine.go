package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/qmuntal/stateless"
)

// MaxHops bounds the transitions fired in one reconcile.
const MaxHops = 8

// Transition is one journal entry: an edge the machine took in this
// reconcile. It is the one shape a transition has from the engine to status,
// Events, metrics and spans.
type Transition struct {
	From    string
	To      string
	Trigger string
	At      time.Time
	// Reason and Message explain the destination state as it was entered.
	Reason  string
	Message string
	// Failing marks a failure edge (into a Degraded or Blocked state),
	// published as a Warning.
	Failing bool
}

// EventReason is the Event reason for this edge: the specific failure reason
// on failure edges (RuntimeNotRecognized, ProgressDeadlineExceeded...), the
// trigger otherwise, so no two kinds of edge share a catch-all reason.
func (t Transition) EventReason() string {
	if t.Failing && t.Reason != "" {
		return t.Reason
	}
	return t.Trigger
}

// Machine is one reconcile's view of an object's lifecycle. Build a fresh one
// per reconcile and never share it between goroutines.
type Machine[S ~string, T ~string, O any] struct {
	spec    *Definition[S, T, O]
	sm      *stateless.StateMachine
	state   S
	now     func() time.Time
	obs     O
	journal []Transition
	// first is the classification Begin made, which Run's first step reuses
	// so an observation is classified once per reconcile.
	first *classification[T]
}

type classification[T ~string] struct {
	trigger T
	ok      bool
}

// New builds a machine whose state is the one stored in status. An empty stored
// state starts at Initial; a state this version does not declare is mapped to
// Recovery and journalled as a transition on the definition's recovery trigger.
func (s *Definition[S, T, O]) New(stored string, now func() time.Time) *Machine[S, T, O] {
	m := &Machine[S, T, O]{spec: s, now: now, state: S(stored)}
	switch info, known := s.Record(S(stored)); {
	case stored == "":
		m.state = s.Initial
	case !known || info.Kind == Abstract:
		m.state = s.Recovery
		m.journal = append(m.journal, m.entry(S(stored), s.Recovery, s.RecoveryTrigger))
	}
	m.sm = stateless.NewStateMachineWithExternalStorage(m.load, m.store, stateless.FiringQueued)
	m.sm.OnUnhandledTrigger(m.unhandled)
	m.sm.OnTransitioned(m.record)
	s.Define(newBuilder[S, T, O](m.sm))
	return m
}

// Begin classifies the first observation of a reconcile before anything runs
// and reports whether the machine is about to move (a trigger is implied, or
// the stored state was already mapped to Recovery). Run reuses this
// classification for its first step.
func (m *Machine[S, T, O]) Begin(obs O) bool {
	m.obs = obs
	trigger, ok := m.spec.Classify(m.state, obs)
	m.first = &classification[T]{trigger: trigger, ok: ok}
	return ok || len(m.journal) > 0
}

// classify returns Begin's answer the first time after Begin, and classifies
// afresh from then on.
func (m *Machine[S, T, O]) classify(obs O) (T, bool) {
	if c := m.first; c != nil {
		m.first = nil
		return c.trigger, c.ok
	}
	return m.spec.Classify(m.state, obs)
}

func (m *Machine[S, T, O]) load(context.Context) (stateless.State, error) { return m.state, nil }

func (m *Machine[S, T, O]) store(_ context.Context, st stateless.State) error {
	m.state = st.(S)
	return nil
}

func (m *Machine[S, T, O]) unhandled(_ context.Context, st stateless.State, tr stateless.Trigger, unmet []string) error {
	if len(unmet) > 0 {
		// stateless names the adapters around typed guards; the declaration
		// knows their real names.
		unmet = m.declaredGuards(st.(S), tr.(T))
	}
	return &NotPermittedError{Machine: m.spec.Name, State: fmt.Sprint(st), Trigger: fmt.Sprint(tr), UnmetGuards: unmet}
}

// declaredGuards names the guards declared on trigger's edges out of state.
func (m *Machine[S, T, O]) declaredGuards(state S, trigger T) []string {
	var out []string
	for _, e := range m.spec.Blueprint().EffectiveEdges(state) {
		if e.Trigger == trigger {
			out = append(out, e.Guards...)
		}
	}
	return out
}

func (m *Machine[S, T, O]) record(_ context.Context, t stateless.Transition) {
	m.journal = append(m.journal, m.entry(t.Source.(S), t.Destination.(S), t.Trigger.(T)))
}

func (m *Machine[S, T, O]) entry(from, to S, trigger T) Transition {
	reason, message := m.spec.Explain(to, m.obs)
	return Transition{From: string(from), To: string(to), Trigger: string(trigger), At: m.now(),
		Reason: reason, Message: message, Failing: m.spec.KindOf(to).Failing()}
}

// State returns the current state.
func (m *Machine[S, T, O]) State() S { return m.state }

// Definition returns the machine's declaration.
func (m *Machine[S, T, O]) Definition() *Definition[S, T, O] { return m.spec }

// Journal returns the transitions taken so far, oldest first.
func (m *Machine[S, T, O]) Journal() []Transition { return m.journal }

// Observation returns the latest observation the machine saw.
func (m *Machine[S, T, O]) Observation() O { return m.obs }

// Fire fires trigger with the observation as its only argument. A trigger the
// current state does not permit returns a *NotPermittedError; an inconsistent
// definition returns a *DefinitionError instead of panicking.
func (m *Machine[S, T, O]) Fire(ctx context.Context, trigger T, obs O) (err error) {
	m.obs = obs
	defer func() {
		if r := recover(); r != nil {
			err = &DefinitionError{Machine: m.spec.Name, Problem: fmt.Sprint(r)}
		}
	}()
	return m.sm.FireCtx(ctx, trigger, obs)
}

// Activity runs the idempotent step of a state and returns the observation
// updated with its outcome.
type Activity[S ~string, O any] func(ctx context.Context, state S, obs O) O

// Run drives the machine for one reconcile. It classifies the observation in
// the stored state; after every transition the destination's activity runs
// before the next classification, because the observation predates the
// destination's work; a state reached without a transition runs its activity
// and is classified once more on the outcome. Each activity runs at most once
// per reconcile. When Begin was called, Run takes its classification for the
// first step instead of classifying again. Run returns the final observation and a *HopLimitError,
// *NotPermittedError or *DefinitionError when it had to stop early; the
// activity of the state it stopped in has still run.
func (m *Machine[S, T, O]) Run(ctx context.Context, obs O, act Activity[S, O]) (O, error) {
	m.obs = obs
	ran := map[S]bool{}
	runActivity := func() bool {
		if ran[m.state] || act == nil {
			return false
		}
		ran[m.state] = true
		obs = act(ctx, m.state, obs)
		m.obs = obs
		return true
	}
	path := []string{string(m.state)}
	for hops := 0; ; {
		trigger, ok := m.classify(obs)
		if !ok {
			if runActivity() {
				continue
			}
			return obs, nil
		}
		if hops == MaxHops {
			runActivity()
			return obs, &HopLimitError{Machine: m.spec.Name, Path: path}
		}
		before := len(m.journal)
		if err := m.Fire(ctx, trigger, obs); err != nil {
			runActivity()
			return obs, err
		}
		if len(m.journal) == before {
			// An ignored trigger changes nothing and classifying again would
			// return it again: this observation has settled.
			runActivity()
			return obs, nil
		}
		hops++
		path = append(path, string(trigger)+"->"+string(m.state))
		runActivity()
	}
}

// WaitingFor lists the non-ambient triggers permitted in the current state
// given the latest observation, in declaration order.
func (m *Machine[S, T, O]) WaitingFor(ctx context.Context) []string {
	permitted, err := m.sm.PermittedTriggersCtx(ctx, m.obs)
	if err != nil {
		return nil
	}
	allowed := map[T]bool{}
	for _, p := range permitted {
		allowed[p.(T)] = true
	}
	var out []string
	for _, t := range m.spec.Triggers {
		if allowed[t.Trigger] && !t.Ambient {
			out = append(out, string(t.Trigger))
		}
	}
	return out
}
