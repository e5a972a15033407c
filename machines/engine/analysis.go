package engine

import "sort"

// EffectiveEdges returns the edges that apply in state: its own declarations
// first, then those inherited from each superstate for triggers that no nearer
// level declares, exactly as stateless resolves handlers.
func (bp Blueprint[S, T]) EffectiveEdges(state S) []Edge[S, T] {
	var out []Edge[S, T]
	handled := map[T]bool{}
	for level, ok := state, true; ok; level, ok = bp.Super[level] {
		var here []T
		for _, e := range bp.Edges {
			if e.From != level || handled[e.Trigger] {
				continue
			}
			inherited := e
			inherited.From = state
			// A superstate edge back into the current state is silently ignored by
			// stateless; record it as an ignore so tables read true.
			if level != state && e.To == state {
				inherited.Ignore, inherited.To = true, ""
			}
			out = append(out, inherited)
			here = append(here, e.Trigger)
		}
		for _, t := range here {
			handled[t] = true
		}
	}
	return out
}

// Successors returns the states reachable in one transition from state,
// ignoring guards (which only ever narrow the choice).
func (bp Blueprint[S, T]) Successors(state S) []S {
	seen := map[S]bool{}
	var out []S
	for _, e := range bp.EffectiveEdges(state) {
		if !e.Ignore && !seen[e.To] {
			seen[e.To] = true
			out = append(out, e.To)
		}
	}
	return out
}

// Reachable returns every state reachable from start, start included.
func (bp Blueprint[S, T]) Reachable(start S) map[S]bool {
	seen := map[S]bool{start: true}
	queue := []S{start}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, next := range bp.Successors(s) {
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return seen
}

// StuckStates returns the non-final, non-abstract states from which no Settled
// state can be reached: states an object could never leave healthy. A correct
// machine has none.
func (s *Definition[S, T, O]) StuckStates() []S {
	bp := s.Blueprint()
	var stuck []S
	for _, st := range s.States {
		if st.Kind == Final || st.Kind == Abstract {
			continue
		}
		ok := false
		for r := range bp.Reachable(st.State) {
			if s.KindOf(r) == Settled {
				ok = true
				break
			}
		}
		if !ok {
			stuck = append(stuck, st.State)
		}
	}
	sort.Slice(stuck, func(i, j int) bool { return stuck[i] < stuck[j] })
	return stuck
}

// Outcome describes what a trigger may do in a state according to the declaration.
type Outcome[S ~string] struct {
	// Destinations lists the possible targets (several when guards choose).
	Destinations []S
	// Ignored is true when the trigger is declared to do nothing.
	Ignored bool
}

// Permitted reports whether the trigger is handled at all in the state.
func (o Outcome[S]) Permitted() bool { return o.Ignored || len(o.Destinations) > 0 }

// OutcomeOf returns the declared outcome of trigger in state.
func (bp Blueprint[S, T]) OutcomeOf(state S, trigger T) Outcome[S] {
	var o Outcome[S]
	for _, e := range bp.EffectiveEdges(state) {
		if e.Trigger != trigger {
			continue
		}
		if e.Ignore {
			o.Ignored = true
			continue
		}
		o.Destinations = append(o.Destinations, e.To)
	}
	return o
}
