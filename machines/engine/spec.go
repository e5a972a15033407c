package engine

import "fmt"

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

// StateRecord declares one state, once: what it means, what kind of state it
// is, which step runs in it and the facts about it that controllers would
// otherwise hard-code as lists of states.
type StateRecord[S ~string] struct {
	State S
	Kind  Kind
	// Description answers, in a user's words, what being in this state means.
	Description string
	// Activity names the idempotent step the controller runs in this state
	// ("" runs none). The controller maps each name to a step; a name it does
	// not know is a definition error caught by its tests.
	Activity string
	// TakesUpGeneration marks the states that act on a new generation of the
	// spec: entering one answers the SpecChanged fact, so the same
	// observation does not fire SpecChanged again.
	TakesUpGeneration bool
}

// TriggerRecord declares one trigger.
type TriggerRecord[T ~string] struct {
	Trigger T
	// Description says which observation fires the trigger.
	Description string
	// Ambient triggers (deletion, stop, spec change) are always possible, so they
	// are left out of Lifecycle.WaitingFor to keep it about what the state waits for.
	Ambient bool
}

// Definition declares a lifecycle machine. S, T and O are the machine's
// state, trigger and observation types.
type Definition[S ~string, T ~string, O any] struct {
	// Name is the machine's name, as in `fsmserve machines graph NAME`.
	Name string
	// Initial is the state of an object that has none yet.
	Initial S
	// Recovery is where a state read from status that this version does not
	// know (left by an older version, a hand edit, a restore) is mapped; it must
	// re-derive the right state from observation.
	Recovery S
	// RecoveryTrigger is the trigger journalled for the move from an
	// unrecognised stored state to Recovery.
	RecoveryTrigger T
	States          []StateRecord[S]
	Triggers        []TriggerRecord[T]
	// Define declares the transitions; it is called once per machine built.
	Define func(b *Builder[S, T, O])
	// Classify maps an observation in a state to the trigger it implies, if any.
	// It must be pure.
	Classify func(S, O) (T, bool)
	// Explain gives the reason and message recorded for being in a state.
	Explain func(S, O) (reason, message string)
}

// Validate checks the declaration: every state and trigger declared once, the
// initial and recovery states declared, and every transition between declared
// states on declared triggers.
func (s *Definition[S, T, O]) Validate() error {
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
	if !triggers[s.RecoveryTrigger] {
		return fmt.Errorf("machine %s: recovery trigger %q is not declared", s.Name, s.RecoveryTrigger)
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

// Record returns the declaration of a state, if it is declared.
func (s *Definition[S, T, O]) Record(state S) (StateRecord[S], bool) {
	for _, st := range s.States {
		if st.State == state {
			return st, true
		}
	}
	return StateRecord[S]{}, false
}

// Activities lists the activity names the states declare, each once, in
// declaration order: what a controller must supply a step for.
func (s *Definition[S, T, O]) Activities() []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range s.States {
		if st.Activity != "" && !seen[st.Activity] {
			seen[st.Activity] = true
			out = append(out, st.Activity)
		}
	}
	return out
}

// KindOf returns the kind of a declared state; undeclared states are Progressing.
func (s *Definition[S, T, O]) KindOf(state S) Kind {
	if info, ok := s.Record(state); ok {
		return info.Kind
	}
	return Progressing
}

// Blueprint records the transitions Define declares, without a live machine.
func (s *Definition[S, T, O]) Blueprint() Blueprint[S, T] {
	b := newBuilder[S, T, O](nil)
	s.Define(b)
	return b.blueprint
}

// Guard is a named guard over the machine's observation. Guards must be pure
// and cheap, and the guards of one trigger in one state mutually exclusive.
type Guard[O any] func(O) bool
