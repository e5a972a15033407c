package localmodelcache

import (
	"time"

	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
)

// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelcaches;localmodelnamespacecaches,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelcaches/status;localmodelnamespacecaches/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelcaches/finalizers;localmodelnamespacecaches/finalizers,verbs=update
// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelnodes,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=localmodelnodegroups,verbs=get;list;watch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferenceservices,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=nodes;namespaces,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=persistentvolumes;persistentvolumeclaims,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups="",namespace=kserve,resources=configmaps,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch;update

// MaxConcurrentReconciles lets one slow cache not hold up others (upstream
// runs a single worker). Caches writing the same LocalModelNode at once are
// safe: every write is optimistically locked and retried on a fresh read.
const MaxConcurrentReconciles = 4

// SetupWithManager registers the controller of r.Kind and its watches.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	m := &mapper{c: mgr.GetClient(), kind: r.Kind}
	name := "localmodelcache"
	if r.Kind.Namespaced {
		name = "localmodelnamespacecache"
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		For(r.Kind.New(), builder.WithPredicates(predicate.Or(predicate.GenerationChangedPredicate{}, deletionStarted()))).
		Watches(&corev1.Node{}, handler.EnqueueRequestsFromMapFunc(m.forNode), builder.WithPredicates(nodeMembershipChanged())).
		Watches(&v1alpha1.LocalModelNode{}, oldAndNew(m.forLocalModelNode), builder.WithPredicates(localModelNodeChanged())).
		Watches(&v1alpha1.LocalModelNodeGroup{}, handler.EnqueueRequestsFromMapFunc(m.forNodeGroup)).
		Watches(&v1beta1.InferenceService{}, oldAndNew(m.forInferenceService), builder.WithPredicates(usageChanged())).
		Watches(&corev1.PersistentVolume{}, handler.EnqueueRequestsFromMapFunc(m.forVolume), builder.WithPredicates(deleted())).
		Watches(&corev1.PersistentVolumeClaim{}, handler.EnqueueRequestsFromMapFunc(m.forVolume), builder.WithPredicates(deleted())).
		Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(m.forAll), builder.WithPredicates(isPlatformConfig(r.Config.Namespace))).
		Watches(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(m.forWaitingOnJobNamespace), builder.WithPredicates(created())).
		WithOptions(controller.Options{MaxConcurrentReconciles: MaxConcurrentReconciles}).
		Complete(r.lifecycle())
}

// deletionStarted passes the update that sets a deletion timestamp.
func deletionStarted() predicate.Funcs {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return e.ObjectOld.GetDeletionTimestamp() == nil && e.ObjectNew.GetDeletionTimestamp() != nil
	}}
}

func isPlatformConfig(namespace string) predicate.Funcs {
	return predicate.NewPredicateFuncs(func(o client.Object) bool {
		return o.GetNamespace() == namespace && o.GetName() == config.ConfigMapName
	})
}

// created passes only creations.
func created() predicate.Funcs {
	return predicate.Funcs{
		UpdateFunc:  func(event.UpdateEvent) bool { return false },
		DeleteFunc:  func(event.DeleteEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
	}
}

// deleted passes only deletions: a cache's volume deleted by hand is made
// again; other changes to volumes (binding) do not concern the cache.
func deleted() predicate.Funcs {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return false },
		UpdateFunc:  func(event.UpdateEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
	}
}

// Setup registers the controllers of both cache kinds with the manager.
func Setup(mgr ctrl.Manager, clk clock.PassiveClock, grace time.Duration, cfg *config.Source, tracer trace.Tracer) error {
	for _, kind := range []Kind{ClusterCaches, NamespaceCaches} {
		r := &Reconciler{
			Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Clock: clk, StatusGrace: grace, Config: cfg, Kind: kind,
			Publisher: &lifecycle.Publisher{Events: mgr.GetEventRecorder("fsmserve"), Tracer: tracer,
				Kind: kind.Name, Machine: machine.MachineName},
		}
		if err := r.SetupWithManager(mgr); err != nil {
			return err
		}
	}
	return nil
}
