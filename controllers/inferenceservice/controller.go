// Package inferenceservice reconciles InferenceServices in Standard mode. It
// is one kind of the lifecycle kit (controllers/lifecycle): what is its own
// is the observe function (world.go), the steps by activity name (steps.go)
// and the pure status derivation (status.go, modelstatus.go).
package inferenceservice

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
)

// Finalizer is KServe's finalizer name (v1beta1.InferenceServiceFinalizer).
const Finalizer = v1beta1.InferenceServiceFinalizer

// Reconciler holds what the InferenceService kind needs from its process.
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
	// ClusterDomain is the cluster's DNS domain, for status.address.
	ClusterDomain string

	once sync.Once
	kit  *kit
}

type kit = lifecycle.Reconciler[*v1beta1.InferenceService, machine.State, machine.Trigger, machine.Observation, *world]

// run is one reconcile of an InferenceService.
type run = lifecycle.Run[*v1beta1.InferenceService, *world]

// Reconcile runs the shared skeleton with this kind's parts.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return r.lifecycle().Reconcile(ctx, req)
}

func (r *Reconciler) lifecycle() *kit {
	r.once.Do(func() {
		r.kit = &kit{Client: r.Client, Clock: r.Clock, Publisher: r.Publisher, StatusGrace: r.StatusGrace, Kind: lifecycle.Kind[*v1beta1.InferenceService, machine.State, machine.Trigger, machine.Observation, *world]{
			Name:         "InferenceService",
			Definition:   machine.Definition,
			Finalizer:    Finalizer,
			New:          func() *v1beta1.InferenceService { return &v1beta1.InferenceService{} },
			Status:       statusOf,
			Observe:      r.observe,
			Observation:  observation,
			Steps:        steps,
			DeriveStatus: deriveStatus,
		}}
	})
	return r.kit
}

func statusOf(isvc *v1beta1.InferenceService) lifecycle.StatusAccess {
	st := &isvc.Status
	return lifecycle.StatusAccess{Value: st, Lifecycle: &st.Lifecycle, ObservedGeneration: &st.ObservedGeneration}
}

// stateOf returns the state stored in status, "" for a new object.
func stateOf(isvc *v1beta1.InferenceService) string {
	if isvc.Status.Lifecycle == nil {
		return ""
	}
	return isvc.Status.Lifecycle.State
}
