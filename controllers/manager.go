// Package controllers assembles fsmserve's controllers into a manager: the
// caches they share, the clock, the tracer, and the registration of each
// controller.
package controllers

import (
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/inferencegraph"
	"github.com/fsmserve/fsmserve/controllers/inferenceservice"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/controllers/localmodelcache"
	"github.com/fsmserve/fsmserve/internal/tracing"
	igmachine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	isvcmachine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/steps/predictor"
)

// Options configure the controllers.
type Options struct {
	// SystemNamespace holds inferenceservice-config.
	SystemNamespace string
	// Clock stamps lifecycle and condition times; a fake one in scenarios.
	Clock clock.PassiveClock
	// TracerProvider receives the lifecycle spans.
	TracerProvider trace.TracerProvider
	// ClusterDomain is the cluster DNS domain; detected when empty.
	ClusterDomain string
	// StatusGrace is how long a progress report may wait
	// for its outcome (lifecycle.Grace): zero is lifecycle.DefaultStatusGrace,
	// a negative value writes every report at once.
	StatusGrace time.Duration
}

// CacheOptions keeps the manager's caches to what fsmserve needs: children it
// manages (by label; model-cache volumes too), model pods (by label) and
// ConfigMaps of the system namespace only, so memory does not grow with the
// cluster's unrelated objects.
func CacheOptions(systemNamespace string) cache.Options {
	managed := labels.SelectorFromSet(labels.Set{predictor.ManagedByLabel: predictor.ManagedByValue})
	modelPods, _ := labels.NewRequirement(v1beta1.InferenceServiceLabel, selection.Exists, nil)
	return cache.Options{
		// Nothing reads managedFields from the cache (children are compared
		// by fsmserve's own digest annotation), and they are often a third of
		// an object.
		DefaultTransform: cache.TransformStripManagedFields(),
		ByObject: map[client.Object]cache.ByObject{
			&appsv1.Deployment{}:                     {Label: managed},
			&corev1.Service{}:                        {Label: managed},
			&networkingv1.Ingress{}:                  {Label: managed},
			&autoscalingv2.HorizontalPodAutoscaler{}: {Label: managed},
			&corev1.PersistentVolume{}:               {Label: managed},
			&corev1.PersistentVolumeClaim{}:          {Label: managed},
			&corev1.Pod{}:                            {Label: labels.NewSelector().Add(*modelPods)},
			&corev1.ConfigMap{}:                      {Namespaces: map[string]cache.Config{systemNamespace: {}}},
		}}
}

// Setup registers every controller with the manager.
func Setup(mgr ctrl.Manager, opts Options) error {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if opts.ClusterDomain == "" {
		opts.ClusterDomain = ClusterDomain()
	}
	if opts.StatusGrace == 0 {
		opts.StatusGrace = lifecycle.DefaultStatusGrace
	}
	tracer := opts.TracerProvider.Tracer(tracing.InstrumentationName)
	isvc := &inferenceservice.Reconciler{
		Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Clock: opts.Clock, ClusterDomain: opts.ClusterDomain,
		StatusGrace: opts.StatusGrace,
		Config:      &config.Source{Reader: mgr.GetClient(), Namespace: opts.SystemNamespace},
		Publisher: &lifecycle.Publisher{Events: mgr.GetEventRecorder("fsmserve"), Tracer: tracer,
			Kind: "InferenceService", Machine: isvcmachine.MachineName},
	}
	if err := isvc.SetupWithManager(mgr); err != nil {
		return err
	}
	graph := &inferencegraph.Reconciler{
		Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Clock: opts.Clock, Config: isvc.Config, StatusGrace: opts.StatusGrace,
		Publisher: &lifecycle.Publisher{Events: mgr.GetEventRecorder("fsmserve"), Tracer: tracer,
			Kind: "InferenceGraph", Machine: igmachine.MachineName},
	}
	if err := graph.SetupWithManager(mgr); err != nil {
		return err
	}
	return localmodelcache.Setup(mgr, opts.Clock, opts.StatusGrace, isvc.Config, tracer)
}

// ClusterDomain returns $CLUSTER_DOMAIN, else the domain of the pod's
// resolv.conf search path (svc.<domain>), else cluster.local.
func ClusterDomain() string {
	if d := os.Getenv("CLUSTER_DOMAIN"); d != "" {
		return d
	}
	raw, err := os.ReadFile("/etc/resolv.conf")
	if err != nil {
		return "cluster.local"
	}
	return domainFromResolvConf(string(raw))
}

func domainFromResolvConf(text string) string {
	for _, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] != "search" {
			continue
		}
		for _, f := range fields[1:] {
			if rest, ok := strings.CutPrefix(f, "svc."); ok && rest != "" {
				return rest
			}
		}
	}
	return "cluster.local"
}
