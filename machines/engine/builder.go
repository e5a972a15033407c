package engine

import (
	"reflect"
	"runtime"
	"strings"

	"github.com/qmuntal/stateless"
)

// Edge is one declared transition.
type Edge[S ~string, T ~string] struct {
	From    S
	Trigger T
	To      S
	// Guards names the guard functions, in declaration order.
	Guards []string
	// Ignore marks a trigger declared as deliberately ignored in From.
	Ignore bool
}

// Blueprint is the static shape of a machine: its edges and its hierarchy.
type Blueprint[S ~string, T ~string] struct {
	Edges []Edge[S, T]
	Super map[S]S
}

// Builder declares transitions. It records every declaration for diagrams and
// analysis and, when bound to a live machine, configures stateless as well, so
// the diagram can never drift from the behaviour.
type Builder[S ~string, T ~string] struct {
	sm        *stateless.StateMachine
	blueprint Blueprint[S, T]
}

func newBuilder[S ~string, T ~string](sm *stateless.StateMachine) *Builder[S, T] {
	return &Builder[S, T]{sm: sm, blueprint: Blueprint[S, T]{Super: map[S]S{}}}
}

// StateBuilder declares the transitions out of one state.
type StateBuilder[S ~string, T ~string] struct {
	b     *Builder[S, T]
	state S
	sc    *stateless.StateConfiguration
}

// Configure starts the declarations for state.
func (b *Builder[S, T]) Configure(state S) *StateBuilder[S, T] {
	sb := &StateBuilder[S, T]{b: b, state: state}
	if b.sm != nil {
		sb.sc = b.sm.Configure(state)
	}
	return sb
}

// SubstateOf places the state inside a superstate, inheriting its transitions.
func (sb *StateBuilder[S, T]) SubstateOf(super S) *StateBuilder[S, T] {
	sb.b.blueprint.Super[sb.state] = super
	if sb.sc != nil {
		sb.sc.SubstateOf(super)
	}
	return sb
}

// Permit declares a transition on trigger to dest, allowed when every guard holds.
func (sb *StateBuilder[S, T]) Permit(trigger T, dest S, guards ...Guard) *StateBuilder[S, T] {
	sb.b.blueprint.Edges = append(sb.b.blueprint.Edges, Edge[S, T]{From: sb.state, Trigger: trigger, To: dest, Guards: guardNames(guards)})
	if sb.sc != nil {
		sb.sc.Permit(trigger, dest, toStateless(guards)...)
	}
	return sb
}

// Ignore declares that trigger does nothing in this state.
func (sb *StateBuilder[S, T]) Ignore(trigger T, guards ...Guard) *StateBuilder[S, T] {
	sb.b.blueprint.Edges = append(sb.b.blueprint.Edges, Edge[S, T]{From: sb.state, Trigger: trigger, Ignore: true, Guards: guardNames(guards)})
	if sb.sc != nil {
		sb.sc.Ignore(trigger, toStateless(guards)...)
	}
	return sb
}

func toStateless(guards []Guard) []stateless.GuardFunc {
	out := make([]stateless.GuardFunc, len(guards))
	for i, g := range guards {
		out[i] = stateless.GuardFunc(g)
	}
	return out
}

func guardNames(guards []Guard) []string {
	names := make([]string, len(guards))
	for i, g := range guards {
		names[i] = funcName(g)
	}
	return names
}

// funcName returns the short name of a named function, e.g. "previousServing".
func funcName(fn any) string {
	full := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	if i := strings.LastIndex(full, "."); i >= 0 {
		full = full[i+1:]
	}
	return full
}
