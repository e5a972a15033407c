package lifecycle

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/machines/engine"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// Kind is what one kind of object brings to the shared reconcile. P is the
// object's pointer type, S, T and O its machine's state, trigger and
// observation, W its world: what one reconcile read (configuration,
// resolution, children), nothing else.
type Kind[P client.Object, S ~string, T ~string, O any, W any] struct {
	// Name is the object's kind, as in span names: "InferenceService".
	Name string
	// Definition is the kind's lifecycle machine.
	Definition *engine.Definition[S, T, O]
	// Finalizer holds the object until its Final state's step has run.
	Finalizer string
	// New returns an empty object to read into.
	New func() P
	// Status gives access to the object's status.
	Status func(P) StatusAccess
	// Observe reads the world the machine decides on. An error is transient
	// and retried; everything the user must fix belongs in the world.
	Observe func(ctx context.Context, r *Run[P, W]) (W, error)
	// Observation distils the world and the outcomes of the steps run so far
	// into the machine's observation. It must be pure: it runs again after
	// every step.
	Observation func(r *Run[P, W]) O
	// Steps maps every activity name the definition declares to its step.
	Steps map[string]Step[P, W]
	// DeriveStatus writes the object's status in memory from where the
	// reconcile ended. It must not read the cluster or the clock: everything
	// it needs is in the run and end.
	DeriveStatus func(r *Run[P, W], end End[S, O])
}

// StatusAccess points into an object's status.
type StatusAccess struct {
	// Value is the status struct (a pointer to it); a reconcile whose
	// Value is unchanged writes nothing.
	Value any
	// Lifecycle is the status.lifecycle field.
	Lifecycle **common.Lifecycle
	// ObservedGeneration is status.observedGeneration: the generation last
	// acted on.
	ObservedGeneration *int64
}

// Step is the idempotent work of one activity. It changes the world it
// applies (so the next observation sees the applied children) and reports
// an outcome, which the next observation carries.
type Step[P client.Object, W any] func(ctx context.Context, r *Run[P, W]) outcome.Outcome

// End is where a reconcile ended, for DeriveStatus.
type End[S ~string, O any] struct {
	State S
	// Record is the state's declaration (its kind says Reconciling/Stalled).
	Record      engine.StateRecord[S]
	Lifecycle   *common.Lifecycle
	Observation O
	Now         metav1.Time
}

// RecheckInterval is how often a state that waits for something no watch
// reports looks again: a child in the way that fsmserve did not make is not
// in its cache (the cache holds only fsmserve's own children, to keep memory
// flat in a big cluster), so its deletion is seen on the next look. Ten
// seconds keeps the state true soon after the user's fix, for a few
// uncached GETs per blocked object; children of another fsmserve object are
// in the cache and wake the object at once (ForeignChildren).
const RecheckInterval = 10 * time.Second

// Recheck is the step of such a state: it does nothing but ask to run again.
func Recheck[P client.Object, W any](context.Context, *Run[P, W]) outcome.Outcome {
	return outcome.OK(false).After(RecheckInterval)
}

// Validate checks that the kind supplies a step for every activity its
// machine declares, and no step for an activity it does not: a state whose
// step is missing would silently do nothing.
func (k Kind[P, S, T, O, W]) Validate() error {
	declared := map[string]bool{}
	for _, a := range k.Definition.Activities() {
		declared[a] = true
		if k.Steps[a] == nil {
			return fmt.Errorf("kind %s: activity %q has no step", k.Name, a)
		}
	}
	for a := range k.Steps {
		if !declared[a] {
			return fmt.Errorf("kind %s: step %q is no state's activity", k.Name, a)
		}
	}
	return nil
}
