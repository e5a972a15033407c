package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// observation is what one poll of an expectation saw.
type observation struct {
	namespace string
	// object is nil when it was not found (or not read: objectErr).
	object    *unstructured.Unstructured
	objectErr error
	// eventsRead is true once events were listed (for checks, or for the
	// report of a failure).
	eventsRead bool
	events     []eventRecord
	eventsErr  error
	traceID    string
	spans      []string
	spansErr   error
	// spansUnseen is true on a host that records no spans: the span
	// check is skipped (and listed in the outcome), not failed.
	spansUnseen bool
	children    map[string]bool
	childErrs   map[string]error
	// deleting holds the children that exist with a deletion timestamp.
	deleting map[string]bool
}

// expect polls until every check of the step holds, or reports the last
// observation when the time is up.
func (r *run) expect(ctx context.Context, step Step) error {
	e := step.Expect
	ns := r.namespaceFor(step, e.Namespace)
	within := r.h.within(e.Within)
	deadline := time.Now().Add(within)
	for {
		obs := r.observe(ctx, e, ns)
		failures := evaluate(e, obs)
		if len(failures) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			r.readEvents(ctx, obs)
			return errors.New(report(e, within, obs, failures))
		}
		if err := sleep(ctx, pollInterval); err != nil {
			r.readEvents(context.WithoutCancel(ctx), obs)
			return fmt.Errorf("%w before the expectation held\n%s", err, report(e, within, obs, failures))
		}
	}
}

// observe reads what the expectation's checks need.
func (r *run) observe(ctx context.Context, e *Expect, ns string) *observation {
	obs := &observation{namespace: ns}
	if e.Object != "" {
		r.observeObject(ctx, e, obs)
	}
	if e.Children != nil {
		r.observeChildren(ctx, e.Children, obs)
	}
	return obs
}

func (r *run) observeObject(ctx context.Context, e *Expect, obs *observation) {
	_, info, key, err := r.target(e.Object, obs.namespace)
	if err != nil {
		obs.objectErr = err
		return
	}
	obj := info.newObject(key.Name, key.Namespace)
	if err := r.h.Client.Get(ctx, key, obj); err != nil {
		if !apierrors.IsNotFound(err) {
			obs.objectErr = err
		}
		return
	}
	obs.object = obj
	if len(e.Events) > 0 || len(e.EventsAbsent) > 0 || len(e.Passed) > 0 {
		r.readEvents(ctx, obs)
	}
	obs.traceID = traceIDOf(obj)
	if len(e.Spans) > 0 {
		if r.h.Spans == nil {
			obs.spansUnseen = true
			r.skipCheck("spans: this host records no spans of fsmserve's controllers (they run in the cluster); read the trace in Jaeger instead")
			return
		}
		obs.spans = spanNamesInTrace(r.h.Spans(), obs.traceID)
	}
}

// readEvents lists the events of the observed object, once: for checks, and
// for a failure report, where they tell what happened to the object.
func (r *run) readEvents(ctx context.Context, obs *observation) {
	if obs.object == nil || obs.eventsRead {
		return
	}
	obj := obs.object
	about := regardingObject{uid: obj.GetUID(), kind: obj.GetKind(), namespace: obj.GetNamespace(), name: obj.GetName()}
	obs.events, obs.eventsErr = listEvents(ctx, r.h.Client, about)
	obs.eventsRead = true
}

func (r *run) observeChildren(ctx context.Context, c *Children, obs *observation) {
	obs.children = map[string]bool{}
	obs.childErrs = map[string]error{}
	obs.deleting = map[string]bool{}
	for _, text := range c.all() {
		_, info, key, err := r.target(text, obs.namespace)
		if err != nil {
			obs.childErrs[text] = err
			continue
		}
		meta := &metav1.PartialObjectMetadata{}
		meta.SetGroupVersionKind(info.gvk)
		err = r.h.Client.Get(ctx, key, meta)
		switch {
		case err == nil:
			obs.children[text] = true
			obs.deleting[text] = meta.GetDeletionTimestamp() != nil
		case apierrors.IsNotFound(err):
			obs.children[text] = false
		default:
			obs.childErrs[text] = err
		}
	}
}

// evaluate returns what does not hold; none means the expectation is met.
func evaluate(e *Expect, obs *observation) []string {
	var failures []string
	if e.Object != "" {
		failures = append(failures, evaluateObject(e, obs)...)
	}
	if e.Children != nil {
		failures = append(failures, evaluateChildren(e.Children, obs)...)
	}
	return failures
}

func evaluateObject(e *Expect, obs *observation) []string {
	switch {
	case obs.objectErr != nil:
		return []string{fmt.Sprintf("reading %s: %v", e.Object, obs.objectErr)}
	case obs.object == nil:
		return []string{fmt.Sprintf("%s not found", e.Object)}
	}
	content := obs.object.Object
	var failures []string
	for _, f := range []struct {
		name string
		want *Match
		path []string
	}{{"state", e.State, lifecyclePath("state")}, {"reason", e.Reason, lifecyclePath("reason")}} {
		if f.want == nil {
			continue
		}
		value, found, _ := unstructured.NestedString(content, f.path...)
		if present := found && value != ""; !f.want.check(value, present) {
			failures = append(failures, fmt.Sprintf("%s: want %s, got %s", f.name, f.want.want(), shown(value, present)))
		}
	}
	failures = append(failures, matchConditions(e.Conditions, conditionsOf(content))...)
	failures = append(failures, matchFields(e.Fields, content)...)
	failures = append(failures, evaluateEvents(e, obs)...)
	failures = append(failures, evaluatePassed(e, obs)...)
	return append(failures, evaluateSpans(e, obs)...)
}

func lifecyclePath(field string) []string { return []string{"status", "lifecycle", field} }

func evaluateEvents(e *Expect, obs *observation) []string {
	if len(e.Events) == 0 && len(e.EventsAbsent) == 0 {
		return nil
	}
	if obs.eventsErr != nil {
		return []string{fmt.Sprintf("reading events: %v", obs.eventsErr)}
	}
	occ := occurrences(obs.events)
	var failures []string
	if f := matchEventOrder(e.Events, occ); f != "" {
		failures = append(failures, f)
	}
	return append(failures, matchEventsAbsent(e.EventsAbsent, occ)...)
}

func evaluateSpans(e *Expect, obs *observation) []string {
	switch {
	case len(e.Spans) == 0, obs.spansUnseen:
		return nil
	case obs.spansErr != nil:
		return []string{obs.spansErr.Error()}
	case obs.traceID == "":
		return []string{"spans: the object has no .status.lifecycle.traceID yet"}
	}
	if missing := missingNames(e.Spans, obs.spans); len(missing) > 0 {
		return []string{fmt.Sprintf("spans: no %s in trace %s", strings.Join(missing, ", "), obs.traceID)}
	}
	return nil
}

func evaluateChildren(c *Children, obs *observation) []string {
	var failures []string
	check := func(refs []string, wantPresent bool) {
		for _, ref := range refs {
			if err := obs.childErrs[ref]; err != nil {
				failures = append(failures, fmt.Sprintf("children: %s: %v", ref, err))
				continue
			}
			if obs.children[ref] != wantPresent {
				failures = append(failures, fmt.Sprintf("children: %s %s", ref, presence(!wantPresent)))
			}
		}
	}
	check(c.Present, true)
	check(c.Absent, false)
	for _, ref := range c.Gone {
		switch {
		case obs.childErrs[ref] != nil:
			failures = append(failures, fmt.Sprintf("children: %s: %v", ref, obs.childErrs[ref]))
		case obs.children[ref] && !obs.deleting[ref]:
			failures = append(failures, fmt.Sprintf("children: %s exists and is not being deleted (want gone)", ref))
		}
	}
	return failures
}

// all lists every reference the expectation names.
func (c *Children) all() []string {
	return append(append(append([]string(nil), c.Present...), c.Absent...), c.Gone...)
}

// presence words what was found about a child.
func presence(present bool) string {
	if present {
		return "exists (want absent)"
	}
	return "does not exist (want present)"
}
