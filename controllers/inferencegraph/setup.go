package inferencegraph

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
)

// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferencegraphs,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferencegraphs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferencegraphs/finalizers,verbs=update
// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferenceservices,verbs=get;list;watch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=servingruntimes;clusterservingruntimes,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=services,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",namespace=kserve,resources=configmaps,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch;update

// MaxConcurrentReconciles lets one slow graph not hold up others (upstream
// runs a single worker).
const MaxConcurrentReconciles = 4

// serviceNameIndex indexes graphs by the InferenceServices their steps name,
// so an InferenceService's change wakes exactly the graphs that call it.
const serviceNameIndex = "spec.nodes.steps.serviceName"

// SetupWithManager registers the controller, its index and its watches.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.APIReader == nil {
		r.APIReader = mgr.GetAPIReader()
	}
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &v1alpha1.InferenceGraph{}, serviceNameIndex, serviceNames); err != nil {
		return err
	}
	if err := foreignChildren.Index(context.Background(), mgr, &v1alpha1.InferenceGraph{}); err != nil {
		return err
	}
	foreign := foreignChildren.Handler(mgr.GetClient())
	children := lifecycle.Coalesced(lifecycle.ControllerOf(v1alpha1.GroupVersion.WithKind("InferenceGraph").GroupKind()))
	return ctrl.NewControllerManagedBy(mgr).
		Named("inferencegraph").
		For(&v1alpha1.InferenceGraph{}, builder.WithPredicates(predicate.Or(
			predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{},
			predicate.LabelChangedPredicate{}, deletionStarted()))).
		Watches(&appsv1.Deployment{}, children).
		Watches(&corev1.Service{}, children).
		Watches(&autoscalingv2.HorizontalPodAutoscaler{}, children).
		Watches(&appsv1.Deployment{}, foreign).
		Watches(&corev1.Service{}, foreign).
		Watches(&autoscalingv2.HorizontalPodAutoscaler{}, foreign).
		Watches(&v1beta1.InferenceService{}, handler.EnqueueRequestsFromMapFunc(r.forInferenceService), builder.WithPredicates(serviceChanged())).
		Watches(&v1alpha1.ServingRuntime{}, handler.EnqueueRequestsFromMapFunc(r.forNamespace)).
		Watches(&v1alpha1.ClusterServingRuntime{}, handler.EnqueueRequestsFromMapFunc(r.forNamespace)).
		Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(r.forAll), builder.WithPredicates(isPlatformConfig(r.Config.Namespace))).
		WithOptions(controller.Options{MaxConcurrentReconciles: MaxConcurrentReconciles}).
		Complete(r.lifecycle())
}

// foreignChildren wakes a graph when a child with its router's name that it
// does not control changes or goes away.
var foreignChildren = lifecycle.ForeignChildren{
	Parent:     v1alpha1.GroupVersion.WithKind("InferenceGraph"),
	NewList:    func() client.ObjectList { return &v1alpha1.InferenceGraphList{} },
	ChildNames: func(o client.Object) []string { return []string{o.GetName()} },
}

// serviceNames lists the InferenceServices a graph's steps name, once each.
func serviceNames(obj client.Object) []string {
	ig, ok := obj.(*v1alpha1.InferenceGraph)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, node := range ig.Spec.Nodes {
		for _, s := range node.Steps {
			if s.ServiceName != "" && !seen[s.ServiceName] {
				seen[s.ServiceName] = true
				out = append(out, s.ServiceName)
			}
		}
	}
	return out
}

// forInferenceService enqueues the graphs of the namespace whose steps name it.
func (r *Reconciler) forInferenceService(ctx context.Context, obj client.Object) []reconcile.Request {
	list := &v1alpha1.InferenceGraphList{}
	if err := r.Client.List(ctx, list, client.InNamespace(obj.GetNamespace()), client.MatchingFields{serviceNameIndex: obj.GetName()}); err != nil {
		return nil
	}
	return requests(list)
}

// forNamespace enqueues every graph a runtime can concern: those of its
// namespace, or all for a cluster runtime (namespace "").
func (r *Reconciler) forNamespace(ctx context.Context, obj client.Object) []reconcile.Request {
	list := &v1alpha1.InferenceGraphList{}
	if err := r.Client.List(ctx, list, client.InNamespace(obj.GetNamespace())); err != nil {
		return nil
	}
	return requests(list)
}

func (r *Reconciler) forAll(ctx context.Context, _ client.Object) []reconcile.Request {
	list := &v1alpha1.InferenceGraphList{}
	if err := r.Client.List(ctx, list); err != nil {
		return nil
	}
	return requests(list)
}

func requests(list *v1alpha1.InferenceGraphList) []reconcile.Request {
	out := make([]reconcile.Request, 0, len(list.Items))
	for i := range list.Items {
		out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
	}
	return out
}

// serviceChanged passes the InferenceService events that can change a step's
// URL or readiness: creation, deletion, a new spec (model name, protocol), a
// deletion starting, Ready flipping, the address moving, and its lifecycle
// state changing (which the waiting message quotes).
func serviceChanged() predicate.Funcs {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		old, oldOK := e.ObjectOld.(*v1beta1.InferenceService)
		cur, curOK := e.ObjectNew.(*v1beta1.InferenceService)
		if !oldOK || !curOK {
			return true
		}
		return old.Generation != cur.Generation ||
			(old.DeletionTimestamp == nil) != (cur.DeletionTimestamp == nil) ||
			old.Status.IsConditionTrue(v1beta1.Ready) != cur.Status.IsConditionTrue(v1beta1.Ready) ||
			addressOf(old) != addressOf(cur) ||
			lifecycleState(old) != lifecycleState(cur)
	}}
}

func addressOf(isvc *v1beta1.InferenceService) string {
	if isvc.Status.Address == nil {
		return ""
	}
	return isvc.Status.Address.URL.String()
}

func lifecycleState(isvc *v1beta1.InferenceService) string {
	if isvc.Status.Lifecycle == nil {
		return ""
	}
	return isvc.Status.Lifecycle.State
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
