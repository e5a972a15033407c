package localmodelnode

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/trace"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/nodecache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// The agent's least privilege: its own LocalModelNode (read, status write),
// what a download Job is built from (read), Jobs in the job namespace only,
// its Events, and inferenceservice-config in the system namespace.
// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelnodes,verbs=get;list;watch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelnodes/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelcaches;localmodelnamespacecaches;localmodelnodegroups;clusterstoragecontainers,verbs=get;list;watch
// +kubebuilder:rbac:groups=batch,namespace=kserve-localmodel-jobs,resources=jobs,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups="",namespace=kserve-localmodel-jobs,resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch;update
// +kubebuilder:rbac:groups="",namespace=kserve,resources=configmaps,verbs=get;list;watch

// MaxConcurrentReconciles lets one slow model (a large folder to remove, a
// slow API call) never hold up the node's other models.
const MaxConcurrentReconciles = 4

// Options configure an agent.
type Options struct {
	NodeName        string
	ModelsRoot      string
	JobNamespace    string
	SystemNamespace string
	// Clock times lifecycles and backoffs; a fake one in scenarios.
	Clock             clock.WithDelayedExecution
	TracerProvider    trace.TracerProvider
	Retry             RetryPolicy
	SimulateDownloads bool
}

// Setup registers an agent for o.NodeName with a manager built by NewManager.
func Setup(mgr ctrl.Manager, o Options) (*Agent, error) {
	if o.NodeName == "" {
		return nil, fmt.Errorf("the node agent needs its node's name: set NODE_NAME (downward API spec.nodeName) or --node-name")
	}
	if err := PrepareModelsRoot(o.ModelsRoot); err != nil {
		return nil, err
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	if o.Retry.MaxAttempts <= 0 {
		o.Retry = DefaultRetryPolicy()
	}
	tracer := o.TracerProvider.Tracer(tracing.InstrumentationName)
	events := mgr.GetEventRecorder("fsmserve-localmodel-agent")
	a := &Agent{
		Client: mgr.GetClient(), Fresh: mgr.GetAPIReader(), Clock: o.Clock,
		Config:            &config.Source{Reader: mgr.GetClient(), Namespace: o.SystemNamespace},
		CachePublisher:    &lifecycle.Publisher{Events: events, Tracer: tracer, Kind: "LocalModelNode", Machine: nodecache.MachineName},
		DownloadPublisher: &lifecycle.Publisher{Events: events, Tracer: tracer, Kind: "LocalModelNode", Machine: downloadjob.MachineName},
		NodeName:          o.NodeName, ModelsRoot: o.ModelsRoot, JobNamespace: o.JobNamespace,
		Retry: o.Retry, SimulateDownloads: o.SimulateDownloads, wake: newWakeups(o.Clock),
	}
	if err := mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		<-ctx.Done()
		a.wake.close()
		return nil
	})); err != nil {
		return nil, err
	}
	return a, a.SetupWithManager(mgr, o.SystemNamespace)
}

// SetupWithManager registers the controller: one request per model, from
// the LocalModelNode, its Jobs, what capacity and Jobs are built from, the
// configuration, and the agent's own clock-driven wake-ups.
func (a *Agent) SetupWithManager(mgr ctrl.Manager, systemNamespace string) error {
	all := handler.TypedEnqueueRequestsFromMapFunc(a.forAllModels)
	return builder.TypedControllerManagedBy[Request](mgr).
		Named("localmodelnode-agent").
		Watches(&v1alpha1.LocalModelNode{}, all).
		Watches(&batchv1.Job{}, handler.TypedEnqueueRequestsFromMapFunc(forJob)).
		Watches(&corev1.Pod{}, handler.TypedEnqueueRequestsFromMapFunc(forJob)).
		Watches(&v1alpha1.LocalModelCache{}, all).
		Watches(&v1alpha1.LocalModelNamespaceCache{}, all).
		Watches(&v1alpha1.LocalModelNodeGroup{}, all).
		Watches(&v1alpha1.ClusterStorageContainer{}, all).
		Watches(&corev1.ConfigMap{}, all, builder.WithPredicates(isPlatformConfig(systemNamespace))).
		WatchesRawSource(source.TypedChannel(a.wake.events, handler.TypedFuncs[Request, Request]{GenericFunc: a.onWakeup})).
		WithOptions(controller.TypedOptions[Request]{MaxConcurrentReconciles: MaxConcurrentReconciles, SkipNameValidation: ptr.To(true)}).
		Complete(a)
}

// forAllModels asks for every model of the node and the housekeeping.
func (a *Agent) forAllModels(ctx context.Context, _ client.Object) []Request {
	node := &v1alpha1.LocalModelNode{}
	if err := a.Client.Get(ctx, client.ObjectKey{Name: a.NodeName}, node); err != nil {
		return nil
	}
	out := []Request{{}}
	for key := range modelKeys(node) {
		out = append(out, Request{Model: key})
	}
	return out
}

// forJob maps a download Job to its model.
func forJob(_ context.Context, obj client.Object) []Request {
	key, ok := localmodel.ModelKeyOfJob(obj.GetAnnotations(), obj.GetLabels())
	if !ok {
		return nil
	}
	return []Request{{Model: key}}
}

func (a *Agent) onWakeup(ctx context.Context, e event.TypedGenericEvent[Request], q workqueue.TypedRateLimitingInterface[Request]) {
	if e.Object.Model != allModels {
		q.Add(e.Object)
		return
	}
	for _, r := range a.forAllModels(ctx, nil) {
		q.Add(r)
	}
}

// EnqueueAll asks the agent to look at every model now, as the periodic
// check does: for a fake node whose disk was changed by hand.
func (a *Agent) EnqueueAll() { a.wake.send(Request{Model: allModels}) }

func isPlatformConfig(namespace string) predicate.Funcs {
	return predicate.NewPredicateFuncs(func(o client.Object) bool {
		return o.GetNamespace() == namespace && o.GetName() == config.ConfigMapName
	})
}
