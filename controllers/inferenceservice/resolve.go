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
func (sc *scope) resolve(ctx context.Context) error {
	for _, key := range neededConfigKeys {
		if ke := sc.cfgErrs.For(key); ke != nil {
			sc.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: ke.Reason(), Message: ke.Error()}
			return nil
		}
	}
	sc.work = sc.isvc.DeepCopy()
	pred := &sc.work.Spec.Predictor
	if impls := pred.GetImplementations(); len(impls) > 1 {
		sc.problem = specProblem(fmt.Sprintf("exactly one of the predictor implementations must be set, found %s; keep one", fieldsOf(impls)))
		return nil
	}
	predictor.Normalize(pred)
	if req, ok := predictor.RuntimeRequest(pred); ok {
		rt, fail, err := sc.chooseRuntime(ctx, req)
		if err != nil {
			return err
		}
		if fail != nil {
			sc.runtimeFailure = fail
			sc.problem = machine.Problem{Kind: machine.RuntimeProblem, Reason: fail.Reason, Message: fail.Detail}
			return nil
		}
		predictor.ApplyRuntime(sc.work, &rt)
		sc.runtime = &rt
	}
	desired, err := predictor.Build(sc.work, sc.runtime, sc.cfg)
	if err != nil {
		sc.problem = specProblem(err.Error())
		return nil
	}
	if _, err := ingress.URL(sc.isvc, &sc.cfg.Ingress); err != nil {
		sc.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: config.Reason(config.KeyIngress),
			Message: fmt.Sprintf("inferenceservice-config key %q: the domainTemplate renders no valid host for %s: %v", config.KeyIngress, sc.isvc.Name, err)}
		return nil
	}
	sc.desired = desired
	return nil
}

func (sc *scope) chooseRuntime(ctx context.Context, req runtime.Request) (runtime.Runtime, *runtime.Failure, error) {
	srs := &v1alpha1.ServingRuntimeList{}
	if err := sc.r.Client.List(ctx, srs, client.InNamespace(sc.isvc.Namespace)); err != nil {
		return runtime.Runtime{}, nil, err
	}
	csrs := &v1alpha1.ClusterServingRuntimeList{}
	if err := sc.r.Client.List(ctx, csrs); err != nil {
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
