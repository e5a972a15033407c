package runner

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// report explains an unmet expectation: what was expected, what did not
// hold, and what the object looked like at the last poll.
func report(e *Expect, within time.Duration, obs *observation, failures []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "not met within %s (namespace %s):\n", within, obs.namespace)
	for _, f := range failures {
		fmt.Fprintf(&b, "  - %s\n", f)
	}
	if e.Object != "" {
		fmt.Fprintf(&b, "expected of %s:\n", e.Object)
	} else {
		b.WriteString("expected:\n")
	}
	b.WriteString(indent(expectedYAML(e), "  "))
	if e.Object != "" && obs.object != nil {
		fmt.Fprintf(&b, "last observed %s:\n", e.Object)
		b.WriteString(indent(describeObject(e, obs), "  "))
	}
	if e.Children != nil {
		b.WriteString("last observed children:\n")
		b.WriteString(indent(describeChildren(e.Children, obs), "  "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// expectedYAML renders the checks of e; the object, namespace and time bound
// are in the lines around it.
func expectedYAML(e *Expect) string {
	checks := *e
	checks.Object, checks.Namespace, checks.Within = "", "", nil
	out, err := yaml.Marshal(checks)
	if err != nil {
		return fmt.Sprintf("%+v\n", checks)
	}
	return string(out)
}

// describeObject renders the lifecycle, conditions, events and spans of the
// observed object, one item a line.
func describeObject(e *Expect, obs *observation) string {
	content := obs.object.Object
	var b strings.Builder
	state, _, _ := unstructured.NestedString(content, lifecyclePath("state")...)
	reason, _, _ := unstructured.NestedString(content, lifecyclePath("reason")...)
	message, _, _ := unstructured.NestedString(content, lifecyclePath("message")...)
	if state != "" || e.State != nil || e.Reason != nil {
		fmt.Fprintf(&b, "state: %s\n", orNone(state))
	}
	if reason != "" || message != "" {
		fmt.Fprintf(&b, "reason: %s  message: %s\n", orNone(reason), orNone(message))
	}
	if waiting, _, _ := unstructured.NestedStringSlice(content, "status", "lifecycle", "waitingFor"); len(waiting) > 0 {
		fmt.Fprintf(&b, "waitingFor: %s\n", strings.Join(waiting, ", "))
	}
	conditions := conditionsOf(content)
	switch {
	case len(conditions) == 0 && len(e.Conditions) > 0:
		b.WriteString("conditions: (none)\n")
	case len(conditions) > 0:
		b.WriteString("conditions:\n")
		for _, c := range conditions {
			fmt.Fprintf(&b, "  %s\n", describeCondition(c))
		}
	}
	for _, path := range sortedKeys(e.Fields) {
		value, present, _ := fieldValue(path, content)
		fmt.Fprintf(&b, "field %s: %s\n", path, shown(value, present))
	}
	b.WriteString(describeEvents(e, obs))
	if len(e.Spans) > 0 && obs.spansErr == nil {
		fmt.Fprintf(&b, "spans in trace %s: %s\n", orNone(obs.traceID), orNone(strings.Join(obs.spans, ", ")))
	}
	return b.String()
}

func describeEvents(e *Expect, obs *observation) string {
	switch {
	case !obs.eventsRead:
		return ""
	case obs.eventsErr != nil:
		return fmt.Sprintf("events: unreadable: %v\n", obs.eventsErr)
	}
	return fmt.Sprintf("events (oldest first): %s\n", orNone(strings.Join(reasons(occurrences(obs.events)), ", ")))
}

func describeChildren(c *Children, obs *observation) string {
	var b strings.Builder
	for _, ref := range append(append([]string(nil), c.Present...), c.Absent...) {
		switch {
		case obs.childErrs[ref] != nil:
			fmt.Fprintf(&b, "%s: %v\n", ref, obs.childErrs[ref])
		case obs.children[ref]:
			fmt.Fprintf(&b, "%s: exists\n", ref)
		default:
			fmt.Fprintf(&b, "%s: absent\n", ref)
		}
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// indent prefixes every non-empty line of s.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
