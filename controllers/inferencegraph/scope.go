package inferencegraph

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/internal/tracing"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/graph"
)

// scope is one reconcile's view of an InferenceGraph and its world: what was
// read, what was decided, what the steps did. It lives for one reconcile.
type scope struct {
	r           *Reconciler
	ig          *v1alpha1.InferenceGraph
	before      *v1alpha1.InferenceGraphStatus
	storedState string
	traceParent string

	cfg     *config.Config
	cfgErrs *config.Errors
	mode    config.DeploymentMode

	// Resolution: the desired router, or the problem that prevents it.
	desired *graph.Desired
	host    string
	problem machine.Problem

	// Observed (and, after the steps, applied) children.
	deployment *appsv1.Deployment
	service    *corev1.Service
	hpa        *autoscalingv2.HorizontalPodAutoscaler

	spans           *tracing.Recorder
	changed         bool
	errs            []error
	removeFinalizer bool
}

func newScope(r *Reconciler, ig *v1alpha1.InferenceGraph) *scope {
	before := ig.Status.DeepCopy()
	ensureLifecycle(ig)
	return &scope{
		r: r, ig: ig, before: before, storedState: stateOf(ig),
		spans: tracing.NewRecorder("Reconcile InferenceGraph", append(lifecycle.ObjectAttributes(ig),
			attribute.String("sm.machine", machine.MachineName), attribute.Int64("k8s.object.generation", ig.Generation))...),
	}
}

// observe reads everything the machine decides on: configuration, the
// InferenceServices the steps name, and the router's children. Errors here
// are transient API errors and requeue.
func (sc *scope) observe(ctx context.Context) error {
	var err error
	if sc.cfg, sc.cfgErrs, err = sc.r.Config.Load(ctx); err != nil {
		return err
	}
	sc.mode = sc.cfg.Deploy.ModeFor(sc.ig.Status.DeploymentMode, sc.ig.Annotations)
	if err := sc.resolve(ctx); err != nil {
		return err
	}
	return sc.observeChildren(ctx)
}

func (sc *scope) observeChildren(ctx context.Context) error {
	ns, name := sc.ig.Namespace, sc.ig.Name
	var err error
	if sc.deployment, err = getOptional(ctx, sc.r.Client, ns, name, &appsv1.Deployment{}); err != nil {
		return err
	}
	if sc.service, err = getOptional(ctx, sc.r.Client, ns, name, &corev1.Service{}); err != nil {
		return err
	}
	sc.hpa, err = getOptional(ctx, sc.r.Client, ns, name, &autoscalingv2.HorizontalPodAutoscaler{})
	return err
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
		Deleting:       sc.ig.DeletionTimestamp != nil,
		StopRequested:  isStopped(sc.ig),
		SpecChanged:    sc.before.ObservedGeneration != 0 && sc.before.ObservedGeneration != sc.ig.Generation,
		Mode:           string(sc.mode),
		ModeSupported:  sc.mode == config.Standard,
		Problem:        sc.problem,
		Router:         workloadOf(sc.deployment, sc.desiredHash()),
		DeploymentName: sc.ig.Name,
	}
}

// desiredHash is the template hash of the router that should run, "" when it
// cannot be built (then only the rollout itself says whether it is current).
func (sc *scope) desiredHash() string {
	if sc.desired == nil {
		return ""
	}
	return sc.desired.TemplateHash
}
