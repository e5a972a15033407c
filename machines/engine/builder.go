package engine

import (
	"context"
	"fmt"
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
type Builder[S ~string, T ~string, O any] struct {
	sm        *stateless.StateMachine
	blueprint Blueprint[S, T]
}

func newBuilder[S ~string, T ~string, O any](sm *stateless.StateMachine) *Builder[S, T, O] {
	return &Builder[S, T, O]{sm: sm, blueprint: Blueprint[S, T]{Super: map[S]S{}}}
}

// StateBuilder declares the transitions out of one state.
type StateBuilder[S ~string, T ~string, O any] struct {
	b     *Builder[S, T, O]
	state S
	sc    *stateless.StateConfiguration
}

// Configure starts the declarations for state.
func (b *Builder[S, T, O]) Configure(state S) *StateBuilder[S, T, O] {
	sb := &StateBuilder[S, T, O]{b: b, state: state}
	if b.sm != nil {
		sb.sc = b.sm.Configure(state)
	}
	return sb
}

// SubstateOf places the state inside a superstate, inheriting its transitions.
func (sb *StateBuilder[S, T, O]) SubstateOf(super S) *StateBuilder[S, T, O] {
	sb.b.blueprint.Super[sb.state] = super
	if sb.sc != nil {
		sb.sc.SubstateOf(super)
	}
	return sb
}

// Permit declares a transition on trigger to dest, allowed when every guard holds.
func (sb *StateBuilder[S, T, O]) Permit(trigger T, dest S, guards ...Guard[O]) *StateBuilder[S, T, O] {
	sb.b.blueprint.Edges = append(sb.b.blueprint.Edges, Edge[S, T]{From: sb.state, Trigger: trigger, To: dest, Guards: guardNames(guards)})
	if sb.sc != nil {
		sb.sc.Permit(trigger, dest, toStateless(guards)...)
	}
	return sb
}

// Ignore declares that trigger does nothing in this state.
func (sb *StateBuilder[S, T, O]) Ignore(trigger T, guards ...Guard[O]) *StateBuilder[S, T, O] {
	sb.b.blueprint.Edges = append(sb.b.blueprint.Edges, Edge[S, T]{From: sb.state, Trigger: trigger, Ignore: true, Guards: guardNames(guards)})
	if sb.sc != nil {
		sb.sc.Ignore(trigger, toStateless(guards)...)
	}
	return sb
}

// GuardTypeError says a guard was handed something other than the machine's
// observation: a bug in the caller, reported instead of read as a zero value.
type GuardTypeError struct {
	Guard string
	Got   string
}

func (e *GuardTypeError) Error() string {
	return fmt.Sprintf("guard %s was given %s instead of the machine's observation", e.Guard, e.Got)
}

func toStateless[O any](guards []Guard[O]) []stateless.GuardFunc {
	out := make([]stateless.GuardFunc, len(guards))
	for i, g := range guards {
		out[i] = typedGuard(g)
	}
	return out
}

// typedGuard adapts a typed guard to stateless' shape. A mismatched argument
// panics with a *GuardTypeError, which Fire turns into a DefinitionError.
func typedGuard[O any](g Guard[O]) stateless.GuardFunc {
	return func(_ context.Context, args ...any) bool {
		if len(args) == 1 {
			if o, ok := args[0].(O); ok {
				return g(o)
			}
		}
		panic(&GuardTypeError{Guard: funcName(g), Got: fmt.Sprintf("%d arguments %T", len(args), args)})
	}
}

func guardNames[O any](guards []Guard[O]) []string {
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
