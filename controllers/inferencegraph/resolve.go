package inferencegraph

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/graph"
)

// neededConfigKeys are the inferenceservice-config keys the router is built
// from; a broken one blocks the graph with a reason naming the key.
var neededConfigKeys = []string{config.KeyRouter, config.KeyIngress, config.KeyDeploy}

// ReasonUnsupportedProtocol: a step's InferenceService speaks neither v1 nor v2.
const ReasonUnsupportedProtocol = "UnsupportedProtocol"

// resolve builds the desired router, or records the problem that prevents it:
// a broken config key, a graph the router could not run, or a step whose
// InferenceService is missing or not Ready.
func (w *world) resolve(ctx context.Context, c client.Reader, ig *v1alpha1.InferenceGraph) error {
	for _, key := range neededConfigKeys {
		if ke := w.cfgErrs.For(key); ke != nil {
			w.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: ke.Reason(), Message: ke.Error()}
			return nil
		}
	}
	spec := &ig.Spec
	if err := graph.Check(spec); err != nil {
		w.problem = machine.Problem{Kind: machine.SpecProblem, Reason: graph.ReasonInvalidGraphSpec, Message: err.Error()}
		return nil
	}
	host, err := w.cfg.Ingress.Host(ig.Name, ig.Namespace, ig.Annotations, ig.Labels)
	if err != nil {
		w.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: config.Reason(config.KeyIngress),
			Message: fmt.Sprintf("inferenceservice-config key %q: the domainTemplate renders no valid host for %s: %v", config.KeyIngress, ig.Name, err)}
		return nil
	}
	w.host = host
	urls, err := w.resolveSteps(ctx, c, ig, spec)
	if err != nil || w.problem.Kind != machine.NoProblem {
		return err
	}
	raw, err := graph.ResolvedJSON(spec, urls)
	if err != nil {
		w.problem = machine.Problem{Kind: machine.SpecProblem, Reason: graph.ReasonInvalidGraphSpec, Message: err.Error()}
		return nil
	}
	w.desired = graph.Build(ig, raw, w.cfg)
	return nil
}

// resolveSteps turns every serviceName step into its URL, stopping at the
// first step that cannot be resolved (recorded in w.problem).
func (w *world) resolveSteps(ctx context.Context, c client.Reader, ig *v1alpha1.InferenceGraph, spec *v1alpha1.InferenceGraphSpec) (map[graph.StepRef]string, error) {
	urls := map[graph.StepRef]string{}
	byService := map[string]string{}
	for _, ref := range graph.ServiceSteps(spec) {
		name := spec.Nodes[ref.Node].Steps[ref.Index].ServiceName
		if u, ok := byService[name]; ok {
			urls[ref] = u
			continue
		}
		u, problem, err := resolveStep(ctx, c, ig, ref, name)
		if err != nil {
			return nil, err
		}
		if problem != nil {
			w.problem = *problem
			return nil, nil
		}
		byService[name], urls[ref] = u, u
	}
	return urls, nil
}

func resolveStep(ctx context.Context, c client.Reader, ig *v1alpha1.InferenceGraph, ref graph.StepRef, name string) (string, *machine.Problem, error) {
	waiting := func(reason, why string) *machine.Problem {
		return &machine.Problem{Kind: machine.ServiceProblem, Reason: reason,
			Message: fmt.Sprintf("waiting for InferenceService %s (%s.serviceName): %s", name, ref.Field(), why)}
	}
	isvc := &v1beta1.InferenceService{}
	err := c.Get(ctx, client.ObjectKey{Namespace: ig.Namespace, Name: name}, isvc)
	switch {
	case apierrors.IsNotFound(err):
		return "", waiting(machine.ReasonServiceNotFound, fmt.Sprintf("it does not exist in namespace %s; create it, or fix the step's serviceName", ig.Namespace)), nil
	case err != nil:
		return "", nil, err
	case isvc.DeletionTimestamp != nil:
		return "", waiting(machine.ReasonServiceNotReady, "it is being deleted"), nil
	case !isvc.Status.IsConditionTrue(v1beta1.Ready):
		return "", waiting(machine.ReasonServiceNotReady, "it is not Ready"+notReadyDetail(isvc)), nil
	case isvc.Status.Address == nil || isvc.Status.Address.URL == nil:
		return "", waiting(machine.ReasonServiceNotReady, "it has no status.address.url yet"), nil
	}
	rt, problem, err := runtimeOf(ctx, c, isvc, waiting)
	if err != nil || problem != nil {
		return "", problem, err
	}
	u, err := graph.ServiceURL(isvc, rt)
	var pe *graph.ProtocolError
	if errors.As(err, &pe) {
		return "", &machine.Problem{Kind: machine.SpecProblem, Reason: ReasonUnsupportedProtocol, Message: fmt.Sprintf("%s: %s", ref.Field(), pe.Message)}, nil
	}
	return u, nil, err
}

// notReadyDetail says where the InferenceService is: its lifecycle state and
// message when fsmserve runs it, else its Ready condition's reason.
func notReadyDetail(isvc *v1beta1.InferenceService) string {
	if l := isvc.Status.Lifecycle; l != nil && l.State != "" {
		if l.Message != "" {
			return fmt.Sprintf(" (state %s: %s)", l.State, l.Message)
		}
		return fmt.Sprintf(" (state %s)", l.State)
	}
	if c := isvc.Status.GetCondition(v1beta1.Ready); c != nil && c.Reason != "" {
		return fmt.Sprintf(" (%s: %s)", c.Reason, c.Message)
	}
	return " yet"
}

// runtimeOf reads the runtime whose protocolVersions decide the protocol, when
// one does: a ServingRuntime of the namespace first, then a ClusterServingRuntime.
func runtimeOf(ctx context.Context, c client.Reader, isvc *v1beta1.InferenceService, waiting func(string, string) *machine.Problem) (*v1alpha1.ServingRuntimeSpec, *machine.Problem, error) {
	name := graph.RuntimeNeeded(isvc)
	if name == "" {
		return nil, nil, nil
	}
	sr := &v1alpha1.ServingRuntime{}
	err := c.Get(ctx, client.ObjectKey{Namespace: isvc.Namespace, Name: name}, sr)
	if err == nil {
		return &sr.Spec, nil, nil
	}
	if !apierrors.IsNotFound(err) {
		return nil, nil, err
	}
	csr := &v1alpha1.ClusterServingRuntime{}
	err = c.Get(ctx, client.ObjectKey{Name: name}, csr)
	switch {
	case err == nil:
		return &csr.Spec, nil, nil
	case apierrors.IsNotFound(err):
		return nil, waiting(machine.ReasonRuntimeNotFound, fmt.Sprintf("its runtime %s exists neither as a ServingRuntime in %s nor as a ClusterServingRuntime, so its protocol is unknown", name, isvc.Namespace)), nil
	}
	return nil, nil, err
}
