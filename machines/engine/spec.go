package engine

import (
	"context"
	"fmt"
)

// Kind classifies a state by what it means for the object's health and for the
// episode (one journey from a settled state to the next).
type Kind string

const (
	// Progressing states work towards a goal; conditions say Reconciling=True.
	Progressing Kind = "Progressing"
	// Settled states are a goal reached (Ready, Stopped); an episode ends here.
	Settled Kind = "Settled"
	// Degraded states lost health after settling and may recover on their own.
	Degraded Kind = "Degraded"
	// Blocked states cannot proceed until something is fixed; Stalled=True. An
	// episode also ends here: the rollout journey is over until the world changes.
	Blocked Kind = "Blocked"
	// Final states end the object's life (deletion).
	Final Kind = "Final"
	// Abstract states are superstates only; the machine never rests in one.
	Abstract Kind = "Abstract"
)

// Failing reports whether entering a state of this kind is a failure edge,
// published as a Warning.
func (k Kind) Failing() bool { return k == Degraded || k == Blocked }

// EndsEpisode reports whether reaching a state of this kind ends an episode.
func (k Kind) EndsEpisode() bool { return k == Settled || k == Blocked || k == Final }

// StateInfo documents one state.
type StateInfo[S ~string] struct {
	State S
	Kind  Kind
	// Description answers, in a user's words, what being in this state means.
	Description string
}

// TriggerInfo documents one trigger.
type TriggerInfo[T ~string] struct {
	Trigger T
	// Description says which observation fires the trigger.
	Description string
	// Ambient triggers (deletion, stop, spec change) are always possible, so they
	// are left out of Lifecycle.WaitingFor to keep it about what the state waits for.
	Ambient bool
}

// Spec declares a lifecycle machine. S, T and O are the machine's state, trigger
// and observation types.
type Spec[S ~string, T ~string, O any] struct {
	// Name is the machine's name, as in `fsmserve machines graph NAME`.
	Name string
	// Initial is the state of an object that has none yet.
	Initial S
	// Recovery is where a state read from status that this version does not
	// know (left by an older version, a hand edit, a restore) is mapped; it must
	// re-derive the right state from observation.
	Recovery S
	States   []StateInfo[S]
	Triggers []TriggerInfo[T]
	// Define declares the transitions; it is called once per machine built.
	Define func(b *Builder[S, T])
	// Classify maps an observation in a state to the trigger it implies, if any.
	// It must be pure.
	Classify func(S, O) (T, bool)
	// Explain gives the reason and message recorded for being in a state.
	Explain func(S, O) (reason, message string)
}

// Validate checks the declaration: every state and trigger declared once, the
// initial and recovery states declared, and every transition between declared
// states on declared triggers.
func (s *Spec[S, T, O]) Validate() error {
	states := map[S]bool{}
	for _, st := range s.States {
		if states[st.State] {
			return fmt.Errorf("machine %s: state %q declared twice", s.Name, st.State)
		}
		states[st.State] = true
	}
	triggers := map[T]bool{}
	for _, t := range s.Triggers {
		if triggers[t.Trigger] {
			return fmt.Errorf("machine %s: trigger %q declared twice", s.Name, t.Trigger)
		}
		triggers[t.Trigger] = true
	}
	for _, want := range []S{s.Initial, s.Recovery} {
		if !states[want] {
			return fmt.Errorf("machine %s: initial or recovery state %q is not declared", s.Name, want)
		}
	}
	bp := s.Blueprint()
	for _, e := range bp.Edges {
		if !states[e.From] || (!e.Ignore && !states[e.To]) || !triggers[e.Trigger] {
			return fmt.Errorf("machine %s: transition %s --%s--> %s uses an undeclared state or trigger", s.Name, e.From, e.Trigger, e.To)
		}
	}
	for sub, super := range bp.Super {
		if !states[sub] || !states[super] {
			return fmt.Errorf("machine %s: %s substate of %s uses an undeclared state", s.Name, sub, super)
		}
	}
	return nil
}

// Info returns the declaration of a state, if it is declared.
func (s *Spec[S, T, O]) Info(state S) (StateInfo[S], bool) {
	for _, st := range s.States {
		if st.State == state {
			return st, true
		}
	}
	return StateInfo[S]{}, false
}

// KindOf returns the kind of a declared state; undeclared states are Progressing.
func (s *Spec[S, T, O]) KindOf(state S) Kind {
	if info, ok := s.Info(state); ok {
		return info.Kind
	}
	return Progressing
}

// Blueprint records the transitions Define declares, without a live machine.
func (s *Spec[S, T, O]) Blueprint() Blueprint[S, T] {
	b := newBuilder[S, T](nil)
	s.Define(b)
	return b.blueprint
}

// ObservationOf returns the observation passed as the only argument to a trigger.
// Guards use it: func ready(_ context.Context, args ...any) bool { o := engine.ObservationOf[Obs](args); ... }.
func ObservationOf[O any](args []any) O {
	var zero O
	if len(args) == 0 {
		return zero
	}
	o, _ := args[0].(O)
	return o
}

// Guard is a named guard function in stateless' shape. Guards must be pure and
// cheap, and the guards of one trigger in one state mutually exclusive.
type Guard = func(ctx context.Context, args ...any) bool
