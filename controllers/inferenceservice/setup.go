package inferenceservice

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
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
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
)

// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferenceservices,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferenceservices/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferenceservices/finalizers,verbs=update
// +kubebuilder:rbac:groups=serving.kserve.io,resources=servingruntimes;clusterservingruntimes,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=services,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=networking.k8s.io,resources=ingresses,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=resourcequotas,verbs=get;list;watch
// +kubebuilder:rbac:groups="",namespace=kserve,resources=configmaps,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch;update

// MaxConcurrentReconciles lets one slow InferenceService not hold up others
// (upstream runs a single worker).
const MaxConcurrentReconciles = 4

// SetupWithManager registers the controller and its watches.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.APIReader == nil {
		r.APIReader = mgr.GetAPIReader()
	}
	if err := foreignChildren.Index(context.Background(), mgr, &v1beta1.InferenceService{}); err != nil {
		return err
	}
	foreign := foreignChildren.Handler(mgr.GetClient())
	children := lifecycle.Coalesced(lifecycle.ControllerOf(v1beta1.GroupVersion.WithKind("InferenceService").GroupKind()))
	return ctrl.NewControllerManagedBy(mgr).
		Named("inferenceservice").
		For(&v1beta1.InferenceService{}, builder.WithPredicates(predicate.Or(
			predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{},
			predicate.LabelChangedPredicate{}, deletionStarted()))).
		Watches(&appsv1.Deployment{}, children).
		Watches(&corev1.Service{}, children).
		Watches(&networkingv1.Ingress{}, children).
		Watches(&autoscalingv2.HorizontalPodAutoscaler{}, children).
		Watches(&appsv1.Deployment{}, foreign).
		Watches(&corev1.Service{}, foreign).
		Watches(&networkingv1.Ingress{}, foreign).
		Watches(&autoscalingv2.HorizontalPodAutoscaler{}, foreign).
		Watches(&v1alpha1.ServingRuntime{}, handler.EnqueueRequestsFromMapFunc(r.forRuntime)).
		Watches(&v1alpha1.ClusterServingRuntime{}, handler.EnqueueRequestsFromMapFunc(r.forRuntime)).
		Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(r.forAll), builder.WithPredicates(isPlatformConfig(r.Config.Namespace))).
		Watches(&corev1.Pod{}, lifecycle.Delayed(forPod)).
		Watches(&corev1.ResourceQuota{}, handler.EnqueueRequestsFromMapFunc(r.forRefused)).
		WithOptions(controller.Options{MaxConcurrentReconciles: MaxConcurrentReconciles}).
		Complete(r.lifecycle())
}

// foreignChildren wakes an InferenceService when a child with one of its
// children's names that it does not control changes or goes away.
var foreignChildren = lifecycle.ForeignChildren{
	Parent:  v1beta1.GroupVersion.WithKind("InferenceService"),
	NewList: func() client.ObjectList { return &v1beta1.InferenceServiceList{} },
	ChildNames: func(o client.Object) []string {
		isvc, ok := o.(*v1beta1.InferenceService)
		if !ok {
			return nil
		}
		return []string{isvc.PredictorDeploymentName(), isvc.Name}
	},
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

// forRuntime enqueues the InferenceServices a runtime change can move: those
// using it, naming it, or still looking for one. A namespaced runtime only
// concerns its namespace.
func (r *Reconciler) forRuntime(ctx context.Context, obj client.Object) []reconcile.Request {
	list := &v1beta1.InferenceServiceList{}
	if err := r.Client.List(ctx, list, client.InNamespace(obj.GetNamespace())); err != nil {
		return nil
	}
	var out []reconcile.Request
	for i := range list.Items {
		isvc := &list.Items[i]
		if concernsRuntime(isvc, obj.GetName(), obj.GetNamespace() == "") {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(isvc)})
		}
	}
	return out
}

func concernsRuntime(isvc *v1beta1.InferenceService, name string, cluster bool) bool {
	if machine.SeeksRuntime(machine.State(stateOf(isvc))) {
		return true
	}
	st := isvc.Status
	if (cluster && st.ClusterServingRuntimeName == name) || (!cluster && st.ServingRuntimeName == name) {
		return true
	}
	return isvc.Spec.Predictor.GetRuntime() == name
}

// forRefused enqueues the InferenceServices of a namespace whose children
// the API server refused, when one of its quotas changes: a raised quota
// is taken up at once rather than at the next retry.
func (r *Reconciler) forRefused(ctx context.Context, quota client.Object) []reconcile.Request {
	list := &v1beta1.InferenceServiceList{}
	if err := r.Client.List(ctx, list, client.InNamespace(quota.GetNamespace())); err != nil {
		return nil
	}
	var out []reconcile.Request
	for i := range list.Items {
		if stateOf(&list.Items[i]) == string(machine.Refused) {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
		}
	}
	return out
}

func (r *Reconciler) forAll(ctx context.Context, _ client.Object) []reconcile.Request {
	list := &v1beta1.InferenceServiceList{}
	if err := r.Client.List(ctx, list); err != nil {
		return nil
	}
	out := make([]reconcile.Request, 0, len(list.Items))
	for i := range list.Items {
		out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
	}
	return out
}

// forPod maps a predictor pod to its InferenceService, so model status follows
// the storage initializer and the server.
func forPod(_ context.Context, obj client.Object) []reconcile.Request {
	name, ok := obj.GetLabels()[v1beta1.InferenceServiceLabel]
	if !ok {
		return nil
	}
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: obj.GetNamespace(), Name: name}}}
}
