// Package inferencegraph reconciles InferenceGraphs in Standard mode. It is
// one kind of the lifecycle kit (controllers/lifecycle): what is its own is
// resolving every serviceName step to its InferenceService (resolve.go), the
// router's steps (steps.go) and the pure status derivation (status.go).
package inferencegraph

import (
	"context"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
)

// Finalizer is KServe's finalizer name for graphs: it lets the Deleting
// transition be recorded, traced and published before the object goes.
const Finalizer = "inferencegraph.finalizers"

// Reconciler holds what the InferenceGraph kind needs from its process.
type Reconciler struct {
	Client client.Client
	// APIReader reads the API server directly: only to tell a child the cache
	// has not caught up with from one that belongs to someone else.
	APIReader client.Reader
	Scheme    *runtime.Scheme
	Clock     clock.PassiveClock
	Config    *config.Source
	Publisher *lifecycle.Publisher
	// StatusGrace is how long a progress report may
	// wait for its outcome (lifecycle.Grace).
	StatusGrace time.Duration

	once sync.Once
	kit  *kit
}

type kit = lifecycle.Reconciler[*v1alpha1.InferenceGraph, machine.State, machine.Trigger, machine.Observation, *world]

// run is one reconcile of an InferenceGraph.
type run = lifecycle.Run[*v1alpha1.InferenceGraph, *world]

// Reconcile runs the shared skeleton with this kind's parts.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return r.lifecycle().Reconcile(ctx, req)
}

func (r *Reconciler) lifecycle() *kit {
	r.once.Do(func() {
		r.kit = &kit{Client: r.Client, Clock: r.Clock, Publisher: r.Publisher, StatusGrace: r.StatusGrace, Kind: lifecycle.Kind[*v1alpha1.InferenceGraph, machine.State, machine.Trigger, machine.Observation, *world]{
			Name:         "InferenceGraph",
			Definition:   machine.Definition,
			Finalizer:    Finalizer,
			New:          func() *v1alpha1.InferenceGraph { return &v1alpha1.InferenceGraph{} },
			Status:       statusOf,
			Observe:      r.observe,
			Observation:  observation,
			Steps:        steps,
			DeriveStatus: deriveStatus,
		}}
	})
	return r.kit
}

func statusOf(ig *v1alpha1.InferenceGraph) lifecycle.StatusAccess {
	st := &ig.Status
	return lifecycle.StatusAccess{Value: st, Lifecycle: &st.Lifecycle, ObservedGeneration: &st.ObservedGeneration}
}

// stateOf returns the state stored in status, "" for a new object.
func stateOf(ig *v1alpha1.InferenceGraph) string {
	if ig.Status.Lifecycle == nil {
		return ""
	}
	return ig.Status.Lifecycle.State
}

// isStopped reads serving.kserve.io/stop as KServe does: "true" in any case.
func isStopped(ig *v1alpha1.InferenceGraph) bool {
	return strings.EqualFold(ig.Annotations[v1beta1.StopAnnotation], "true")
}
