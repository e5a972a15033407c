// Package inferencegraph validates InferenceGraphs at admission: KServe's rules
// (a root node, unique step names, exactly one target per step, Splitter
// weights summing to 100) and fsmserve's (steps name nodes that exist, no
// cycles, URLs the router can call, a deployment mode fsmserve runs), each
// error naming the field and the fix.
package inferencegraph

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

var nameRE = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)

// Validate returns every problem of the graph.
func Validate(g *v1alpha1.InferenceGraph) field.ErrorList {
	var errs field.ErrorList
	if !nameRE.MatchString(g.Name) {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), g.Name,
			"must consist of lower case letters, digits and '-', start with a letter and end with a letter or digit; rename the graph"))
	}
	errs = append(errs, validateMode(g)...)
	nodes := field.NewPath("spec", "nodes")
	if _, ok := g.Spec.Nodes[v1alpha1.GraphRootNodeName]; !ok {
		errs = append(errs, field.Required(nodes.Key(v1alpha1.GraphRootNodeName), "every graph needs a node named root, where requests enter; name the entry node root"))
	}
	for _, name := range sortedNodeNames(g) {
		errs = append(errs, validateNode(g, name, nodes.Key(name))...)
	}
	return append(errs, validateCycles(g, nodes)...)
}

func validateMode(g *v1alpha1.InferenceGraph) field.ErrorList {
	mode, ok := g.Annotations[v1beta1.DeploymentModeAnnotation]
	if !ok {
		return nil
	}
	path := field.NewPath("metadata", "annotations").Key(v1beta1.DeploymentModeAnnotation)
	switch normalized, known := v1beta1.NormalizeDeploymentMode(mode); {
	case !known:
		return field.ErrorList{field.NotSupported(path, mode, []string{string(v1beta1.Standard), string(v1beta1.LegacyRawDeployment)})}
	case normalized != v1beta1.Standard:
		return field.ErrorList{field.Invalid(path, mode, "fsmserve runs InferenceGraphs in Standard mode only; set Standard or remove the annotation")}
	}
	return nil
}

func validateNode(g *v1alpha1.InferenceGraph, name string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	node := g.Spec.Nodes[name]
	seen := map[string]int{}
	weight := int64(0)
	for i, step := range node.Steps {
		sp := path.Child("steps").Index(i)
		if step.StepName != "" {
			if first, dup := seen[step.StepName]; dup {
				errs = append(errs, field.Duplicate(sp.Child("name"), fmt.Sprintf("%s (also steps[%d]); give each step of a node its own name", step.StepName, first)))
			}
			seen[step.StepName] = i
		}
		errs = append(errs, validateTarget(g, step, sp)...)
		if node.RouterType == v1alpha1.Splitter {
			if step.Weight == nil {
				errs = append(errs, field.Required(sp.Child("weight"), "every step of a Splitter needs a weight; the weights must add up to 100"))
			} else {
				weight += *step.Weight
			}
		}
		if step.Data != "" && step.Data != "$request" && step.Data != "$response" {
			errs = append(errs, field.NotSupported(sp.Child("data"), step.Data, []string{"$request", "$response"}))
		}
	}
	if node.RouterType == v1alpha1.Splitter && weight != 100 {
		errs = append(errs, field.Invalid(path.Child("steps"), weight, "the weights of a Splitter's steps must add up to exactly 100"))
	}
	return errs
}

func validateTarget(g *v1alpha1.InferenceGraph, step v1alpha1.InferenceStep, path *field.Path) field.ErrorList {
	set := 0
	for _, v := range []string{step.NodeName, step.ServiceName, step.ServiceURL} {
		if v != "" {
			set++
		}
	}
	switch {
	case set == 0:
		return field.ErrorList{field.Required(path, "the step does not specify an inference target; set one of nodeName, serviceName or serviceUrl")}
	case set > 1:
		return field.ErrorList{field.Invalid(path, targets(step), "the step specifies more than one of nodeName, serviceName and serviceUrl; keep one")}
	case step.NodeName != "":
		if _, ok := g.Spec.Nodes[step.NodeName]; !ok {
			return field.ErrorList{field.Invalid(path.Child("nodeName"), step.NodeName, "no node of this graph has that name; add it to spec.nodes or correct the name")}
		}
	case step.ServiceURL != "":
		if u, err := url.Parse(step.ServiceURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return field.ErrorList{field.Invalid(path.Child("serviceUrl"), step.ServiceURL, "must be an absolute http:// or https:// URL the router can call")}
		}
	}
	return nil
}

func targets(s v1alpha1.InferenceStep) string {
	return fmt.Sprintf("nodeName=%q serviceName=%q serviceUrl=%q", s.NodeName, s.ServiceName, s.ServiceURL)
}

// validateCycles rejects nodes that reach themselves through nodeName steps:
// the router would recurse until the request times out.
func validateCycles(g *v1alpha1.InferenceGraph, nodes *field.Path) field.ErrorList {
	state := map[string]int{} // 0 unseen, 1 on the path, 2 done
	var errs field.ErrorList
	var visit func(name string) bool
	visit = func(name string) bool {
		if state[name] == 1 {
			return true
		}
		if state[name] == 2 {
			return false
		}
		state[name] = 1
		for _, s := range g.Spec.Nodes[name].Steps {
			if _, ok := g.Spec.Nodes[s.NodeName]; ok && visit(s.NodeName) {
				state[name] = 2
				return true
			}
		}
		state[name] = 2
		return false
	}
	for _, name := range sortedNodeNames(g) {
		if state[name] == 0 && visit(name) {
			errs = append(errs, field.Invalid(nodes.Key(name), name, "the node reaches itself through nodeName steps; remove the cycle"))
		}
	}
	return errs
}

func sortedNodeNames(g *v1alpha1.InferenceGraph) []string {
	names := make([]string, 0, len(g.Spec.Nodes))
	for n := range g.Spec.Nodes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Validator adapts Validate to controller-runtime's admission.
type Validator struct{}

var _ admission.Validator[*v1alpha1.InferenceGraph] = Validator{}

// ValidateCreate validates a new graph.
func (Validator) ValidateCreate(_ context.Context, g *v1alpha1.InferenceGraph) (admission.Warnings, error) {
	return nil, invalid(g, Validate(g))
}

// ValidateUpdate validates a changed graph; updates of graphs being deleted pass.
func (Validator) ValidateUpdate(_ context.Context, _, g *v1alpha1.InferenceGraph) (admission.Warnings, error) {
	if g.DeletionTimestamp != nil {
		return nil, nil
	}
	return nil, invalid(g, Validate(g))
}

// ValidateDelete allows every delete.
func (Validator) ValidateDelete(context.Context, *v1alpha1.InferenceGraph) (admission.Warnings, error) {
	return nil, nil
}

func invalid(g *v1alpha1.InferenceGraph, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(schema.GroupKind{Group: "serving.kserve.io", Kind: "InferenceGraph"}, g.Name, errs)
}
