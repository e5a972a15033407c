package runner

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/client-go/util/jsonpath"
)

// check reports whether a value (present or not) is what m expects.
func (m Match) check(value string, present bool) bool {
	switch {
	case m.absent:
		return !present
	case !present:
		return false
	case m.re != nil:
		return m.re.MatchString(value)
	}
	return value == m.raw
}

// want describes what m expects, for messages.
func (m Match) want() string {
	switch {
	case m.absent:
		return AbsentMarker
	case m.re != nil:
		return "matching " + m.raw
	}
	return strconv.Quote(m.raw)
}

// shown renders an observed value for messages.
func shown(value string, present bool) string {
	if !present {
		return AbsentMarker
	}
	return strconv.Quote(value)
}

// observedCondition is one entry of .status.conditions.
type observedCondition struct {
	Type, Status, Reason, Message string
}

// conditionsOf reads .status.conditions of an object's content.
func conditionsOf(obj map[string]any) []observedCondition {
	status, _ := obj["status"].(map[string]any)
	list, _ := status["conditions"].([]any)
	out := make([]observedCondition, 0, len(list))
	for _, item := range list {
		m, _ := item.(map[string]any)
		text := func(k string) string { s, _ := m[k].(string); return s }
		out = append(out, observedCondition{text("type"), text("status"), text("reason"), text("message")})
	}
	return out
}

// matchConditions returns one failure per condition that is not as expected,
// in the order of the condition types.
func matchConditions(want map[string]ConditionExpect, have []observedCondition) []string {
	var failures []string
	for _, t := range sortedKeys(want) {
		if f := matchCondition(t, want[t], have); f != "" {
			failures = append(failures, f)
		}
	}
	return failures
}

func matchCondition(t string, want ConditionExpect, have []observedCondition) string {
	i := slices.IndexFunc(have, func(c observedCondition) bool { return c.Type == t })
	found := i >= 0
	var c observedCondition
	if found {
		c = have[i]
	}
	var wrong []string
	if !want.Status.check(c.Status, found) {
		wrong = append(wrong, fmt.Sprintf("status %s", want.Status.want()))
	}
	if want.Reason != nil && !want.Reason.check(c.Reason, found && c.Reason != "") {
		wrong = append(wrong, fmt.Sprintf("reason %s", want.Reason.want()))
	}
	if want.Message != nil && !want.Message.check(c.Message, found && c.Message != "") {
		wrong = append(wrong, fmt.Sprintf("message %s", want.Message.want()))
	}
	if len(wrong) == 0 {
		return ""
	}
	got := AbsentMarker
	if found {
		got = describeCondition(c)
	}
	return fmt.Sprintf("condition %s: want %s; got %s", t, strings.Join(wrong, ", "), got)
}

// describeCondition renders a condition as Type=Status (Reason: message).
func describeCondition(c observedCondition) string {
	s := c.Type + "=" + c.Status
	switch {
	case c.Reason != "" && c.Message != "":
		s += fmt.Sprintf(" (%s: %s)", c.Reason, c.Message)
	case c.Reason != "":
		s += " (" + c.Reason + ")"
	case c.Message != "":
		s += " (" + c.Message + ")"
	}
	return s
}

// compileFieldPath parses a field path such as .status.url (or the braced
// kubectl form {.status.url}).
func compileFieldPath(path string) (*jsonpath.JSONPath, error) {
	text := strings.TrimSpace(path)
	if !strings.HasPrefix(text, ".") && !strings.HasPrefix(text, "{") {
		return nil, errors.New("a field path starts with a dot, e.g. .status.url or .metadata.labels.app")
	}
	if !strings.HasPrefix(text, "{") {
		text = "{" + text + "}"
	}
	j := jsonpath.New("field")
	if err := j.Parse(text); err != nil {
		return nil, fmt.Errorf("invalid JSONPath: %w", err)
	}
	return j, nil
}

// fieldValue prints a field of an object's content; present is false when the
// path leads nowhere (a missing key, an index out of range).
func fieldValue(path string, obj map[string]any) (value string, present bool, err error) {
	j, err := compileFieldPath(path)
	if err != nil {
		return "", false, err
	}
	var buf bytes.Buffer
	if err := j.Execute(&buf, obj); err != nil {
		return "", false, nil
	}
	return buf.String(), true, nil
}

// matchFields returns one failure per field path that is not as expected.
func matchFields(want map[string]Match, obj map[string]any) []string {
	var failures []string
	for _, path := range sortedKeys(want) {
		value, present, err := fieldValue(path, obj)
		if err != nil {
			failures = append(failures, fmt.Sprintf("field %s: %v", path, err))
			continue
		}
		if m := want[path]; !m.check(value, present) {
			failures = append(failures, fmt.Sprintf("field %s: want %s, got %s", path, m.want(), shown(value, present)))
		}
	}
	return failures
}

// matchEventOrder checks that the wanted reasons occur in this order among
// the observed occurrences (oldest first); other events may come between.
func matchEventOrder(want []string, have []occurrence) string {
	pos := 0
	for i, reason := range want {
		next := slices.IndexFunc(have[pos:], func(o occurrence) bool { return o.reason == reason })
		if next >= 0 {
			pos += next + 1
			continue
		}
		if !slices.ContainsFunc(have, func(o occurrence) bool { return o.reason == reason }) {
			return fmt.Sprintf("events: no %s event (want %s in this order)", reason, strings.Join(want, ", "))
		}
		return fmt.Sprintf("events: %s occurs only before %s (want %s in this order)", reason, want[i-1], strings.Join(want, ", "))
	}
	return ""
}

// matchEventsAbsent returns a failure for each forbidden reason that occurs.
func matchEventsAbsent(forbidden []string, have []occurrence) []string {
	var failures []string
	for _, reason := range forbidden {
		if slices.ContainsFunc(have, func(o occurrence) bool { return o.reason == reason }) {
			failures = append(failures, fmt.Sprintf("eventsAbsent: a %s event exists", reason))
		}
	}
	return failures
}

// missingNames returns the wanted names that have does not hold.
func missingNames(want, have []string) []string {
	var missing []string
	for _, name := range want {
		if !slices.Contains(have, name) {
			missing = append(missing, name)
		}
	}
	return missing
}
