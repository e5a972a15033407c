package runner

import (
	"context"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// eventRecord is one Event about an object; a series (an event repeated)
// is one record seen first at First and last at Last.
type eventRecord struct {
	Name        string
	Reason      string
	Type        string
	Note        string
	First, Last time.Time
	Count       int32
}

// occurrence is one sighting of an event reason, for order checks.
type occurrence struct {
	reason string
	at     time.Time
	name   string
	note   string
}

// regardingObject identifies the object whose events are read: by UID, so a
// deleted and recreated object does not inherit its predecessor's events.
type regardingObject struct {
	uid                   types.UID
	kind, namespace, name string
}

func (o regardingObject) is(ref corev1.ObjectReference) bool {
	if o.uid != "" && ref.UID != "" {
		return o.uid == ref.UID
	}
	return ref.Kind == o.kind && ref.Namespace == o.namespace && ref.Name == o.name
}

// listEvents reads the Events regarding obj from events.k8s.io/v1 (what the
// controllers publish), or core/v1 where the events API is not served. Events
// about cluster-scoped objects live in the default namespace.
func listEvents(ctx context.Context, c client.Client, obj regardingObject) ([]eventRecord, error) {
	ns := obj.namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	records, err := listEventsV1(ctx, c, ns, obj)
	if meta.IsNoMatchError(err) {
		return listCoreEvents(ctx, c, ns, obj)
	}
	return records, err
}

// listOptions narrows the list on the server to the object's UID when known
// (field prefix "regarding" in events.k8s.io/v1, "involvedObject" in core/v1).
func (o regardingObject) listOptions(ns, fieldPrefix string) []client.ListOption {
	opts := []client.ListOption{client.InNamespace(ns)}
	if o.uid != "" {
		opts = append(opts, client.MatchingFields{fieldPrefix + ".uid": string(o.uid)})
	}
	return opts
}

func listEventsV1(ctx context.Context, c client.Client, ns string, obj regardingObject) ([]eventRecord, error) {
	var list eventsv1.EventList
	if err := c.List(ctx, &list, obj.listOptions(ns, "regarding")...); err != nil {
		return nil, err
	}
	var out []eventRecord
	for _, e := range list.Items {
		if !obj.is(e.Regarding) {
			continue
		}
		r := eventRecord{Name: e.Name, Reason: e.Reason, Type: e.Type, Note: e.Note, Count: 1,
			First: firstTime(e.EventTime, e.DeprecatedFirstTimestamp, e.CreationTimestamp)}
		switch {
		case e.Series != nil:
			r.Last, r.Count = e.Series.LastObservedTime.Time, e.Series.Count
		case e.DeprecatedCount > 1:
			r.Last, r.Count = e.DeprecatedLastTimestamp.Time, e.DeprecatedCount
		}
		out = append(out, r)
	}
	return out, nil
}

func listCoreEvents(ctx context.Context, c client.Client, ns string, obj regardingObject) ([]eventRecord, error) {
	var list corev1.EventList
	if err := c.List(ctx, &list, obj.listOptions(ns, "involvedObject")...); err != nil {
		return nil, err
	}
	var out []eventRecord
	for _, e := range list.Items {
		if !obj.is(e.InvolvedObject) {
			continue
		}
		r := eventRecord{Name: e.Name, Reason: e.Reason, Type: e.Type, Note: e.Message, Count: 1,
			First: firstTime(e.EventTime, e.FirstTimestamp, e.CreationTimestamp)}
		switch {
		case e.Series != nil:
			r.Last, r.Count = e.Series.LastObservedTime.Time, e.Series.Count
		case e.Count > 1:
			r.Last, r.Count = e.LastTimestamp.Time, e.Count
		}
		out = append(out, r)
	}
	return out, nil
}

// firstTime picks the most precise first-seen time an Event carries.
func firstTime(eventTime metav1.MicroTime, first, created metav1.Time) time.Time {
	switch {
	case !eventTime.IsZero():
		return eventTime.Time
	case !first.IsZero():
		return first.Time
	}
	return created.Time
}

// occurrences lists every sighting of every record, oldest first: a series
// counts at its first and at its last sighting, so a reason repeated after
// another is seen after it. Ties keep the order of the Event names, which the
// event recorder derives from a nanosecond clock.
func occurrences(records []eventRecord) []occurrence {
	var out []occurrence
	for _, r := range records {
		out = append(out, occurrence{r.Reason, r.First, r.Name, r.Note})
		if r.Count > 1 && r.Last.After(r.First) {
			out = append(out, occurrence{r.Reason, r.Last, r.Name, r.Note})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].at.Equal(out[j].at) {
			return out[i].at.Before(out[j].at)
		}
		return out[i].name < out[j].name
	})
	return out
}

// reasons lists the reasons of occurrences in order, for messages.
func reasons(occ []occurrence) []string {
	out := make([]string, 0, len(occ))
	for _, o := range occ {
		out = append(out, o.reason)
	}
	return out
}
