package inferenceservice

import (
	"context"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/steps/ingress"
	"github.com/fsmserve/fsmserve/steps/predictor"
	"github.com/fsmserve/fsmserve/steps/runtime"
)

// neededConfigKeys are the inferenceservice-config keys a Standard-mode
// predictor is built from; a broken one blocks it with a reason naming the key.
var neededConfigKeys = []string{config.KeyDeploy, config.KeyIngress, config.KeyInferenceService, config.KeyService}

// resolve builds the desired predictor, or records the problem that prevents
// it: a broken config key, no usable runtime, or an unbuildable spec.
func (w *world) resolve(ctx context.Context, c client.Reader, isvc *v1beta1.InferenceService) error {
	for _, key := range neededConfigKeys {
		if ke := w.cfgErrs.For(key); ke != nil {
			w.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: ke.Reason(), Message: ke.Error()}
			return nil
		}
	}
	w.work = isvc.DeepCopy()
	pred := &w.work.Spec.Predictor
	if impls := pred.GetImplementations(); len(impls) > 1 {
		w.problem = specProblem(fmt.Sprintf("exactly one of the predictor implementations must be set, found %s; keep one", fieldsOf(impls)))
		return nil
	}
	predictor.Normalize(pred)
	if req, ok := predictor.RuntimeRequest(pred); ok {
		rt, fail, err := chooseRuntime(ctx, c, isvc.Namespace, req)
		if err != nil {
			return err
		}
		if fail != nil {
			w.problem = machine.Problem{Kind: machine.RuntimeProblem, Reason: fail.Reason, Message: fail.Detail}
			return nil
		}
		predictor.ApplyRuntime(w.work, &rt)
		w.runtime = &rt
	}
	desired, err := predictor.Build(w.work, w.runtime, w.cfg)
	if err != nil {
		w.problem = specProblem(err.Error())
		return nil
	}
	if _, err := ingress.URL(isvc, &w.cfg.Ingress); err != nil {
		w.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: config.Reason(config.KeyIngress),
			Message: fmt.Sprintf("inferenceservice-config key %q: the domainTemplate renders no valid host for %s: %v", config.KeyIngress, isvc.Name, err)}
		return nil
	}
	w.desired = desired
	return nil
}

func chooseRuntime(ctx context.Context, c client.Reader, namespace string, req runtime.Request) (runtime.Runtime, *runtime.Failure, error) {
	srs := &v1alpha1.ServingRuntimeList{}
	if err := c.List(ctx, srs, client.InNamespace(namespace)); err != nil {
		return runtime.Runtime{}, nil, err
	}
	csrs := &v1alpha1.ClusterServingRuntimeList{}
	if err := c.List(ctx, csrs); err != nil {
		return runtime.Runtime{}, nil, err
	}
	rt, fail := runtime.Resolve(req, runtime.FromServingRuntimes(srs.Items), runtime.FromClusterServingRuntimes(csrs.Items))
	return rt, fail, nil
}

func specProblem(msg string) machine.Problem {
	return machine.Problem{Kind: machine.SpecProblem, Reason: predictor.ReasonInvalidPredictorSpec, Message: msg}
}

func fieldsOf(impls []v1beta1.PredictorImplementation) string {
	names := make([]string, len(impls))
	for i, impl := range impls {
		names[i] = "spec.predictor." + impl.Field
	}
	return strings.Join(names, ", ")
}
