package runner

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// validateStep checks what the decoder cannot in the step's one action:
// references, required fields and combinations.
func validateStep(s *Step, action string) error {
	switch action {
	case actionPatch:
		return validatePatch(s)
	case actionDelete:
		_, err := parseRef(s.Delete)
		return err
	case actionExpect:
		return validateExpect(s)
	case actionWorld:
		return validateWorld(s.World)
	}
	return nil
}

func validatePatch(s *Step) error {
	p := s.Patch
	if err := checkNamespaceOverride(s.Namespace, p.Namespace); err != nil {
		return err
	}
	if p.Object == "" {
		return errors.New(`"object" is required: the Kind/name to patch`)
	}
	if _, err := parseRef(p.Object); err != nil {
		return err
	}
	if jsonKind(p.Merge) != "a mapping" {
		return fmt.Errorf(`"merge" must be a mapping (a JSON merge patch), got %s`, jsonKind(p.Merge))
	}
	if p.Subresource != "" && p.Subresource != "status" {
		return fmt.Errorf(`subresource %q: only "status" can be patched`, p.Subresource)
	}
	return nil
}

func checkNamespaceOverride(step, action string) error {
	if step != "" && action != "" && step != action {
		return fmt.Errorf("namespace given twice (%q on the step, %q in the action): keep one", step, action)
	}
	return nil
}

func validateExpect(s *Step) error {
	e := s.Expect
	if err := checkNamespaceOverride(s.Namespace, e.Namespace); err != nil {
		return err
	}
	objectChecks := e.State != nil || e.Reason != nil || len(e.Conditions) > 0 || len(e.Fields) > 0 ||
		len(e.Events) > 0 || len(e.EventsAbsent) > 0 || len(e.Spans) > 0 || len(e.Passed) > 0
	if e.Object == "" && objectChecks {
		return errors.New(`"object" is required for state, reason, conditions, fields, events, passed and spans`)
	}
	if e.Object == "" && e.Children == nil {
		return errors.New(`nothing to expect: give "object" with checks, or "children"`)
	}
	if e.Object != "" {
		if _, err := parseRef(e.Object); err != nil {
			return err
		}
	}
	if err := validateFieldPaths(e.Fields); err != nil {
		return err
	}
	for _, list := range [][]string{e.Events, e.EventsAbsent, e.Spans} {
		for _, v := range list {
			if strings.TrimSpace(v) == "" {
				return errors.New("events, eventsAbsent and spans hold non-empty names")
			}
		}
	}
	if err := validatePassed(e.Passed); err != nil {
		return err
	}
	return validateChildren(e.Children)
}

func validateFieldPaths(fields map[string]Match) error {
	for path := range fields {
		if _, err := compileFieldPath(path); err != nil {
			return fmt.Errorf("fields %q: %w", path, err)
		}
	}
	return nil
}

func validateChildren(c *Children) error {
	if c == nil {
		return nil
	}
	if len(c.all()) == 0 {
		return errors.New(`children needs "present", "absent" or "gone"`)
	}
	for _, ref := range c.all() {
		if _, err := parseRef(ref); err != nil {
			return fmt.Errorf("children: %w", err)
		}
	}
	return nil
}

// worldActions names the set fields of w, in a fixed order.
func worldActions(w *World) []string {
	var names []string
	add := func(set bool, name string) {
		if set {
			names = append(names, name)
		}
	}
	add(w.DeploymentAvailable != nil, "deploymentAvailable")
	add(w.DeploymentProgressing != nil, "deploymentProgressing")
	add(w.DeploymentUnavailable != nil, "deploymentUnavailable")
	add(w.DeploymentFailed != nil, "deploymentFailed")
	add(w.JobSucceeded != nil, "jobSucceeded")
	add(w.JobFailed != nil, "jobFailed")
	add(w.JobRunning != nil, "jobRunning")
	add(w.PodsReady != nil, "podsReady")
	add(w.PodsStuck != nil, "podsStuck")
	return names
}

func validateWorld(w *World) error {
	names := worldActions(w)
	if len(names) != 1 {
		return fmt.Errorf("world holds exactly one change, got %d (%s)", len(names), strings.Join(names, ", "))
	}
	sel, replicas := worldSelection(w)
	if err := sel.validate(); err != nil {
		return fmt.Errorf("%s: %w", names[0], err)
	}
	if replicas != nil && *replicas < 0 {
		return fmt.Errorf("%s: replicas must not be negative", names[0])
	}
	return nil
}

// worldSelection returns the selection of the one world change and its
// replica override, if any.
func worldSelection(w *World) (Selection, *int32) {
	switch {
	case w.DeploymentAvailable != nil:
		return w.DeploymentAvailable.Selection, w.DeploymentAvailable.Replicas
	case w.DeploymentProgressing != nil:
		return w.DeploymentProgressing.Selection, w.DeploymentProgressing.Replicas
	case w.DeploymentUnavailable != nil:
		return w.DeploymentUnavailable.Selection, w.DeploymentUnavailable.Replicas
	case w.DeploymentFailed != nil:
		return w.DeploymentFailed.Selection, nil
	case w.JobSucceeded != nil:
		return w.JobSucceeded.Selection, nil
	case w.JobFailed != nil:
		return w.JobFailed.Selection, nil
	case w.JobRunning != nil:
		return w.JobRunning.Selection, nil
	case w.PodsReady != nil:
		return w.PodsReady.Selection, nil
	case w.PodsStuck != nil:
		return w.PodsStuck.Selection, nil
	}
	return Selection{}, nil
}

func (s Selection) validate() error {
	switch {
	case s.Name == "" && s.Selector == "":
		return errors.New(`give a name or a label selector ("name" or "selector")`)
	case s.Name != "" && s.Selector != "":
		return errors.New(`give "name" or "selector", not both`)
	case s.Selector != "" && !strings.Contains(s.Selector, "${"):
		// A selector with placeholders is checked once they are replaced.
		if _, err := labels.Parse(s.Selector); err != nil {
			return fmt.Errorf("selector %q: %w", s.Selector, err)
		}
	}
	return nil
}
