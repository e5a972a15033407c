package inferenceservice

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/internal/tracing"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/steps/predictor"
	"github.com/fsmserve/fsmserve/steps/runtime"
)

// scope is one reconcile's view of an InferenceService and its world: what was
// read, what was decided, what the steps did. It lives for one reconcile.
type scope struct {
	r           *Reconciler
	isvc        *v1beta1.InferenceService
	before      *v1beta1.InferenceServiceStatus
	storedState string
	traceParent string

	cfg     *config.Config
	cfgErrs *config.Errors
	mode    config.DeploymentMode

	// Resolution: the normalized spec, the chosen runtime, the desired
	// children, or the problem that prevents building them.
	work           *v1beta1.InferenceService
	runtime        *runtime.Runtime
	runtimeFailure *runtime.Failure
	desired        *predictor.Desired
	problem        machine.Problem

	// Observed (and, after the steps, applied) children.
	deployment *appsv1.Deployment
	service    *corev1.Service
	hpa        *autoscalingv2.HorizontalPodAutoscaler
	ingress    *networkingv1.Ingress
	pods       []corev1.Pod

	spans           *tracing.Recorder
	changed         bool
	requeueAfter    time.Duration
	errs            []error
	removeFinalizer bool
}

func newScope(r *Reconciler, isvc *v1beta1.InferenceService) *scope {
	before := isvc.Status.DeepCopy()
	ensureLifecycle(isvc)
	return &scope{
		r: r, isvc: isvc, before: before, storedState: stateOf(isvc),
		spans: tracing.NewRecorder("Reconcile InferenceService", append(lifecycle.ObjectAttributes(isvc),
			attribute.String("sm.machine", machine.MachineName), attribute.Int64("k8s.object.generation", isvc.Generation))...),
	}
}

// observe reads everything the machine decides on: configuration, runtimes
// and children. Errors here are transient API errors and requeue.
func (sc *scope) observe(ctx context.Context) error {
	var err error
	if sc.cfg, sc.cfgErrs, err = sc.r.Config.Load(ctx); err != nil {
		return err
	}
	sc.mode = sc.cfg.Deploy.ModeFor(sc.isvc.Status.DeploymentMode, sc.isvc.Annotations)
	if err := sc.resolve(ctx); err != nil {
		return err
	}
	return sc.observeChildren(ctx)
}

func (sc *scope) observeChildren(ctx context.Context) error {
	ns, name := sc.isvc.Namespace, sc.isvc.PredictorDeploymentName()
	var err error
	if sc.deployment, err = getOptional(ctx, sc.r.Client, ns, name, &appsv1.Deployment{}); err != nil {
		return err
	}
	if sc.service, err = getOptional(ctx, sc.r.Client, ns, name, &corev1.Service{}); err != nil {
		return err
	}
	if sc.hpa, err = getOptional(ctx, sc.r.Client, ns, name, &autoscalingv2.HorizontalPodAutoscaler{}); err != nil {
		return err
	}
	if sc.ingress, err = getOptional(ctx, sc.r.Client, ns, sc.isvc.Name, &networkingv1.Ingress{}); err != nil {
		return err
	}
	pods := &corev1.PodList{}
	if err := sc.r.Client.List(ctx, pods, client.InNamespace(ns), client.MatchingLabels{v1beta1.AppLabel: "isvc." + name}); err != nil {
		return err
	}
	sc.pods = pods.Items
	return nil
}

// getOptional reads an object, returning nil when it does not exist.
func getOptional[T client.Object](ctx context.Context, c client.Reader, ns, name string, obj T) (T, error) {
	var zero T
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return zero, nil
		}
		return zero, err
	}
	return obj, nil
}

// observation distils the scope into what the machine decides on.
func (sc *scope) observation() machine.Observation {
	return machine.Observation{
		Deleting:       sc.isvc.DeletionTimestamp != nil,
		StopRequested:  sc.isvc.IsStopped(),
		SpecChanged:    sc.before.ObservedGeneration != 0 && sc.before.ObservedGeneration != sc.isvc.Generation,
		Mode:           string(sc.mode),
		ModeSupported:  sc.mode == config.Standard,
		Problem:        sc.problem,
		Predictor:      workloadOf(sc.deployment),
		DeploymentName: sc.isvc.PredictorDeploymentName(),
		UninjectedPods: uninjectedPods(sc.pods),
	}
}
