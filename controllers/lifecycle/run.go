package lifecycle

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// Run is one reconcile of one object: the object as it will be written, what
// was read, and what the steps reported. It lives for one reconcile.
type Run[P client.Object, W any] struct {
	// Object is the object read at the start; DeriveStatus writes its status.
	Object P
	// World is what the kind's Observe read, updated by the steps with what
	// they applied.
	World W
	// Client reads and writes the cluster (steps use it).
	Client client.Client
	// Spans records the reconcile's span tree; steps add theirs.
	Spans *tracing.Recorder
	// TraceParent is the current episode's W3C trace context, for children.
	TraceParent string
	// SpecChanged is true while the object's generation is past the one last
	// acted on and no state that takes up a generation has been entered.
	SpecChanged bool
	// Deleting is true once the object has a deletion timestamp.
	Deleting bool

	now      func() time.Time
	outcomes map[string]outcome.Outcome
	order    []string
}

// Now is the reconcile's clock (the injected one).
func (r *Run[P, W]) Now() time.Time { return r.now() }

// Outcome returns what the step of activity reported in this reconcile.
func (r *Run[P, W]) Outcome(activity string) (outcome.Outcome, bool) {
	o, ok := r.outcomes[activity]
	return o, ok
}

func (r *Run[P, W]) record(activity string, o outcome.Outcome) {
	if r.outcomes == nil {
		r.outcomes = map[string]outcome.Outcome{}
	}
	if _, seen := r.outcomes[activity]; !seen {
		r.order = append(r.order, activity)
	}
	r.outcomes[activity] = o
}

// total is every step's outcome combined, in the order they ran.
func (r *Run[P, W]) total() outcome.Outcome {
	var t outcome.Outcome
	for _, a := range r.order {
		t = t.Then(r.outcomes[a])
	}
	return t
}

// runStep runs the step of activity, if the kind has one, and records it.
func (r *Run[P, W]) runStep(ctx context.Context, activity string, step Step[P, W]) {
	if step == nil {
		return
	}
	r.record(activity, step(ctx, r))
}
