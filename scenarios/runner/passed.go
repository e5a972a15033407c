package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Passed is one state an object must have entered ("has passed through"),
// optionally by a given trigger and with a given reason. Written as the
// state alone ("Deploying") or as {state, trigger?, reason?}.
//
// A state expectation ("is now") holds only while the object rests there,
// which on a cluster whose world moves by itself (kwok makes a predictor
// available within a second) may never be seen. What the object went
// through stays in its lifecycle history and in its Events, so an
// expectation about the path holds whether the world moves fast or slow.
type Passed struct {
	State   string `json:"state"`
	Trigger string `json:"trigger,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// UnmarshalJSON reads the state alone or the mapping form.
func (p *Passed) UnmarshalJSON(data []byte) error {
	if jsonKind(data) == "a string" {
		return json.Unmarshal(data, &p.State)
	}
	type plain Passed
	var v plain
	if err := decodeStrict(data, &v); err != nil {
		return err
	}
	*p = Passed(v)
	return nil
}

func (p Passed) String() string {
	s := p.State
	if p.Trigger != "" {
		s += " by " + p.Trigger
	}
	if p.Reason != "" {
		s += " (" + p.Reason + ")"
	}
	return s
}

func validatePassed(list []Passed) error {
	for _, p := range list {
		if strings.TrimSpace(p.State) == "" {
			return errors.New("passed: every entry names a state")
		}
	}
	return nil
}

// transition is one edge an object took, as its history or an Event tells.
type transition struct {
	from, to, trigger, reason string
}

func (t transition) satisfies(p Passed) bool {
	return t.to == p.State && (p.Trigger == "" || t.trigger == p.Trigger) && (p.Reason == "" || t.reason == p.Reason)
}

// historyOf reads .status.lifecycle.history, oldest first.
func historyOf(obj *unstructured.Unstructured) []transition {
	items, _, _ := unstructured.NestedSlice(obj.Object, "status", "lifecycle", "history")
	out := make([]transition, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		str := func(k string) string { s, _ := m[k].(string); return s }
		out = append(out, transition{from: str("from"), to: str("to"), trigger: str("trigger"), reason: str("reason")})
	}
	return out
}

// eventNote is how the lifecycle publisher words a transition's Event:
// "From -> To (Trigger)" and, optionally, ": message".
var eventNote = regexp.MustCompile(`^(\S+) -> (\S+) \(([^)]*)\)`)

// transitionsFromEvents reads the transitions the object's Events tell, in
// the order the events checks see them (a repeated Event at its first and
// last sighting); the Event's reason is the transition's (the trigger, or
// the failure reason on a failure edge).
func transitionsFromEvents(records []eventRecord) []transition {
	var out []transition
	for _, o := range occurrences(records) {
		if m := eventNote.FindStringSubmatch(o.note); m != nil {
			out = append(out, transition{from: m[1], to: m[2], trigger: m[3], reason: o.reason})
		}
	}
	return out
}

// inOrder reports whether path holds every expected entry in order (other
// transitions may come between), or the first entry it lacks.
func inOrder(want []Passed, path []transition) (Passed, bool) {
	pos := 0
	for _, p := range want {
		found := false
		for pos < len(path) {
			t := path[pos]
			pos++
			if t.satisfies(p) {
				found = true
				break
			}
		}
		if !found {
			return p, false
		}
	}
	return Passed{}, true
}

// evaluatePassed checks the path in the lifecycle history and in the
// Events: either is enough (the history keeps only the newest transitions;
// Events can be dropped by a busy recorder).
func evaluatePassed(e *Expect, obs *observation) []string {
	if len(e.Passed) == 0 {
		return nil
	}
	history := historyOf(obs.object)
	missing, ok := inOrder(e.Passed, history)
	if ok {
		return nil
	}
	if obs.eventsErr == nil {
		if _, ok := inOrder(e.Passed, transitionsFromEvents(obs.events)); ok {
			return nil
		}
	}
	names := make([]string, 0, len(e.Passed))
	for _, p := range e.Passed {
		names = append(names, p.String())
	}
	return []string{fmt.Sprintf("passed: not through %s (want %s in this order; history: %s)",
		missing, strings.Join(names, ", "), pathString(history))}
}

func pathString(path []transition) string {
	if len(path) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(path))
	for _, t := range path {
		parts = append(parts, fmt.Sprintf("%s->%s (%s)", t.from, t.to, t.trigger))
	}
	return strings.Join(parts, ", ")
}
