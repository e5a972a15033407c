package webhooks

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/inferencegraph"
	"github.com/fsmserve/fsmserve/webhooks/servingruntime"
)

// +kubebuilder:rbac:groups=serving.kserve.io,resources=servingruntimes;clusterservingruntimes,verbs=get;list;watch

// registerValidators adds the ServingRuntime, ClusterServingRuntime
// and InferenceGraph validators; the runtime ones they compare a runtime with the others in its scope, read
// through the manager's cache.
func registerValidators(mgr ctrl.Manager, src *config.Source) {
	// Runtimes are listed live: one created a moment before must count.
	v := &servingruntime.Validator{Client: mgr.GetAPIReader(), Config: servingruntime.ConfigLoader(src.Load)}
	srv, s := mgr.GetWebhookServer(), mgr.GetScheme()
	srv.Register(PathSRValidator, admission.WithValidator[*v1alpha1.ServingRuntime](s, servingruntime.NewServingRuntimeValidator(v)))
	srv.Register(PathCSRValidator, admission.WithValidator[*v1alpha1.ClusterServingRuntime](s, servingruntime.NewClusterServingRuntimeValidator(v)))
	srv.Register(PathIGValidator, admission.WithValidator[*v1alpha1.InferenceGraph](s, inferencegraph.Validator{}))
}
