// Package localmodelcache reconciles LocalModelCaches and
// LocalModelNamespaceCaches. It is one kind of the lifecycle kit
// (controllers/lifecycle), for two API kinds that share a machine: what is
// its own is observing the node groups, their nodes, the LocalModelNodes the
// node agents report on and the InferenceServices that use the cache
// (world.go), the steps that write LocalModelNode entries and volumes
// (steps.go), and the pure status derivation (status.go).
package localmodelcache

import (
	"context"
	"sync"
	"time"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
)

// Reconciler reconciles the caches of one Kind.
type Reconciler struct {
	Client client.Client
	// APIReader reads LocalModelNodes afresh when a write conflicts, so a
	// retry never works from a stale cache.
	APIReader client.Reader
	Clock     clock.PassiveClock
	Config    *config.Source
	Publisher *lifecycle.Publisher
	// StatusGrace is how long a progress report may
	// wait for its outcome (lifecycle.Grace).
	StatusGrace time.Duration
	Kind        Kind

	once sync.Once
	kit  *kit
}

type kit = lifecycle.Reconciler[client.Object, machine.State, machine.Trigger, machine.Observation, *world]

// run is one reconcile of a cache.
type run = lifecycle.Run[client.Object, *world]

// Reconcile runs the shared skeleton with this kind's parts.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return r.lifecycle().Reconcile(ctx, req)
}

func (r *Reconciler) lifecycle() *kit {
	r.once.Do(func() {
		r.kit = &kit{Client: r.Client, Clock: r.Clock, Publisher: r.Publisher, StatusGrace: r.StatusGrace, Kind: lifecycle.Kind[client.Object, machine.State, machine.Trigger, machine.Observation, *world]{
			Name:         r.Kind.Name,
			Definition:   machine.Definition,
			Finalizer:    r.Kind.Finalizer,
			New:          r.Kind.New,
			Status:       statusOf,
			Observe:      r.observe,
			Observation:  observation,
			Steps:        steps,
			DeriveStatus: deriveStatus,
		}}
	})
	return r.kit
}

func statusOf(obj client.Object) lifecycle.StatusAccess {
	st := viewOf(obj).status
	return lifecycle.StatusAccess{Value: st, Lifecycle: &st.Lifecycle, ObservedGeneration: &st.ObservedGeneration}
}

// stateOf returns the state stored in status, "" for a new cache.
func stateOf(v view) string {
	if v.status.Lifecycle == nil {
		return ""
	}
	return v.status.Lifecycle.State
}
