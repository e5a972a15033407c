// Package enginetest holds the checks every lifecycle machine's tests run: the
// declared state x trigger table, live firing against that table, agreement
// between Classify and the declared transitions, reachability of a settled
// state, and random trigger sequences for fuzzing.
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fsmserve/fsmserve/machines/engine"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func now() time.Time { return epoch }

// Table renders the declared outcome of every trigger in every concrete state,
// one line per pair, for a golden file that reviewers read.
func Table[S ~string, T ~string, O any](spec *engine.Definition[S, T, O]) string {
	bp := spec.Blueprint()
	var b strings.Builder
	for _, st := range spec.States {
		if st.Kind == engine.Abstract {
			continue
		}
		for _, tr := range spec.Triggers {
			o := bp.OutcomeOf(st.State, tr.Trigger)
			result := "not permitted"
			switch {
			case o.Ignored && len(o.Destinations) == 0:
				result = "ignored"
			case len(o.Destinations) > 0:
				result = "-> " + joinStates(o.Destinations)
				if o.Ignored {
					result += " (or ignored)"
				}
			}
			fmt.Fprintf(&b, "%-20s %-22s %s\n", st.State, tr.Trigger, result)
		}
	}
	return b.String()
}

func joinStates[S ~string](states []S) string {
	parts := make([]string, len(states))
	for i, s := range states {
		parts[i] = string(s)
	}
	return strings.Join(parts, " | ")
}

// CheckLiveMatchesDeclared fires every trigger in every concrete state with
// every sample observation on a fresh machine, and fails when stateless does
// something the declaration does not say: a transition to an undeclared
// destination, a refusal of an unguarded declared edge, or a definition error.
func CheckLiveMatchesDeclared[S ~string, T ~string, O any](t *testing.T, spec *engine.Definition[S, T, O], samples []O) {
	t.Helper()
	bp := spec.Blueprint()
	for _, st := range spec.States {
		if st.Kind == engine.Abstract {
			continue
		}
		for _, tr := range spec.Triggers {
			declared := bp.OutcomeOf(st.State, tr.Trigger)
			for i, obs := range samples {
				m := spec.New(string(st.State), now)
				err := m.Fire(context.Background(), tr.Trigger, obs)
				checkFire(t, declared, st.State, tr.Trigger, i, m.State(), err, unguarded(bp, st.State, tr.Trigger))
			}
		}
	}
}

func checkFire[S ~string, T ~string](t *testing.T, declared engine.Outcome[S], from S, trigger T, sample int, got S, err error, unguardedEdge bool) {
	t.Helper()
	var de *engine.DefinitionError
	switch {
	case errors.As(err, &de):
		t.Errorf("%s --%s--> (sample %d): %v", from, trigger, sample, err)
	case engine.IsNotPermitted(err):
		if unguardedEdge {
			t.Errorf("%s --%s--> (sample %d): refused although declared without guards", from, trigger, sample)
		}
	case err != nil:
		t.Errorf("%s --%s--> (sample %d): unexpected error %v", from, trigger, sample, err)
	case got == from:
		if !declared.Ignored && !contains(declared.Destinations, from) {
			t.Errorf("%s --%s--> (sample %d): stayed although the declaration moves it to %v", from, trigger, sample, declared.Destinations)
		}
	case !contains(declared.Destinations, got):
		t.Errorf("%s --%s--> %s (sample %d): destination not declared (declared %v)", from, trigger, got, sample, declared.Destinations)
	}
}

func unguarded[S ~string, T ~string](bp engine.Blueprint[S, T], state S, trigger T) bool {
	for _, e := range bp.EffectiveEdges(state) {
		if e.Trigger == trigger && len(e.Guards) == 0 {
			return true
		}
	}
	return false
}

func contains[S comparable](list []S, s S) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// CheckClassifyIsPermitted fails when, for some state and sample, Classify
// returns a trigger that the state does not permit under that observation:
// Classify and Define would disagree and the object could never move on.
func CheckClassifyIsPermitted[S ~string, T ~string, O any](t *testing.T, spec *engine.Definition[S, T, O], samples []O) {
	t.Helper()
	for _, st := range spec.States {
		if st.Kind == engine.Abstract {
			continue
		}
		for i, obs := range samples {
			trigger, ok := spec.Classify(st.State, obs)
			if !ok {
				continue
			}
			m := spec.New(string(st.State), now)
			before := m.State()
			if err := m.Fire(context.Background(), trigger, obs); err != nil {
				t.Errorf("Classify(%s, sample %d) = %s, but firing it fails: %v", st.State, i, trigger, err)
				continue
			}
			if m.State() == before && len(m.Journal()) == 0 {
				t.Errorf("Classify(%s, sample %d) = %s, which the state ignores: Classify must return no trigger instead", st.State, i, trigger)
			}
		}
	}
}

// CheckNoStuckStates fails when some state cannot reach a settled state.
func CheckNoStuckStates[S ~string, T ~string, O any](t *testing.T, spec *engine.Definition[S, T, O]) {
	t.Helper()
	if stuck := spec.StuckStates(); len(stuck) > 0 {
		t.Errorf("states that can never reach a settled state: %v", stuck)
	}
}

// RunSequence interprets data as a random story: the first byte picks the stored
// state (one value stands for a state this version does not know), then each
// pair of bytes either fires a trigger directly or runs a whole reconcile on an
// observation built by gen. It fails on a panic, a definition error, or a state
// that is not a declared concrete state.
func RunSequence[S ~string, T ~string, O any](t *testing.T, spec *engine.Definition[S, T, O], gen func(byte) O, data []byte) {
	t.Helper()
	if len(data) == 0 {
		return
	}
	stored := "NoSuchStateFromAnOlderVersion"
	if i := int(data[0]); i < len(spec.States) {
		stored = string(spec.States[i].State)
	}
	m := spec.New(stored, now)
	for i := 1; i+1 < len(data); i += 2 {
		obs := gen(data[i+1])
		var err error
		if data[i]%2 == 0 {
			tr := spec.Triggers[int(data[i]/2)%len(spec.Triggers)].Trigger
			err = m.Fire(context.Background(), tr, obs)
		} else {
			_, err = m.Run(context.Background(), obs, nil)
		}
		var de *engine.DefinitionError
		if errors.As(err, &de) {
			t.Fatalf("step %d: %v", i, err)
		}
		if info, ok := spec.Record(m.State()); !ok || info.Kind == engine.Abstract {
			t.Fatalf("step %d: machine rests in %q, which is not a concrete declared state", i, m.State())
		}
	}
}
