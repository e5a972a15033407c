package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// ReasonInvalidGraphSpec is the reason for a graph the router could not run.
const ReasonInvalidGraphSpec = "InvalidGraphSpec"

// StepRef points at one step of a graph.
type StepRef struct {
	Node  string
	Index int
}

// Field is the step's path in the spec, as messages name it.
func (r StepRef) Field() string { return fmt.Sprintf("spec.nodes.%s.steps[%d]", r.Node, r.Index) }

// ServiceSteps lists the steps the controller resolves: those naming an
// InferenceService and no serviceUrl (a serviceUrl wins, as in KServe), in a
// stable order (nodes by name, steps in order).
func ServiceSteps(spec *v1alpha1.InferenceGraphSpec) []StepRef {
	var out []StepRef
	for _, node := range nodeNames(spec) {
		for i, s := range spec.Nodes[node].Steps {
			if s.ServiceName != "" && s.ServiceURL == "" {
				out = append(out, StepRef{Node: node, Index: i})
			}
		}
	}
	return out
}

// Check finds what would keep the router from starting, the checks the router
// itself makes at start-up: no root node, an empty Sequence, a step without a
// target, a nodeName naming a missing node, nodes that reach themselves, a
// negative weight, a serviceUrl that is not an absolute http(s) URL. The
// webhook rejects most of these at admission; this catches graphs stored
// before it ran. The error names the field and the fix.
func Check(spec *v1alpha1.InferenceGraphSpec) error {
	if _, ok := spec.Nodes[v1alpha1.GraphRootNodeName]; !ok {
		return fmt.Errorf("spec.nodes.%s is missing; every graph needs a node named %q where requests enter", v1alpha1.GraphRootNodeName, v1alpha1.GraphRootNodeName)
	}
	for _, node := range nodeNames(spec) {
		n := spec.Nodes[node]
		if n.RouterType == v1alpha1.Sequence && len(n.Steps) == 0 {
			return fmt.Errorf("spec.nodes.%s.steps is empty; a Sequence needs at least one step", node)
		}
		for i, s := range n.Steps {
			if err := checkStep(spec, StepRef{Node: node, Index: i}.Field(), &s); err != nil {
				return err
			}
		}
	}
	return checkCycles(spec)
}

func checkStep(spec *v1alpha1.InferenceGraphSpec, field string, s *v1alpha1.InferenceStep) error {
	if s.Weight != nil && *s.Weight < 0 {
		return fmt.Errorf("%s.weight is %d; weights are percentages from 0 to 100", field, *s.Weight)
	}
	switch {
	case s.NodeName != "":
		if _, ok := spec.Nodes[s.NodeName]; !ok {
			return fmt.Errorf("%s.nodeName names node %q, which is not in spec.nodes; add the node or fix the name", field, s.NodeName)
		}
	case s.ServiceName == "" && s.ServiceURL == "":
		return fmt.Errorf("%s has no target; set one of nodeName, serviceName or serviceUrl", field)
	case s.ServiceURL != "":
		if err := checkURL(s.ServiceURL); err != nil {
			return fmt.Errorf("%s.serviceUrl %q %v; write an absolute http(s) URL such as http://model.namespace.svc/v1/models/model:predict", field, s.ServiceURL, err)
		}
	}
	return nil
}

// checkCycles rejects nodes that reach themselves through nodeName, which the
// router refuses (it would recurse without end).
func checkCycles(spec *v1alpha1.InferenceGraphSpec) error {
	done := map[string]bool{}
	var visit func(node string, path []string) error
	visit = func(node string, path []string) error {
		if i := slices.Index(path, node); i >= 0 {
			return fmt.Errorf("spec.nodes form a cycle %s; a node may not reach itself through nodeName", strings.Join(append(path[i:], node), " -> "))
		}
		if done[node] {
			return nil
		}
		path = append(path, node)
		for _, s := range spec.Nodes[node].Steps {
			if s.NodeName != "" {
				if err := visit(s.NodeName, path); err != nil {
					return err
				}
			}
		}
		done[node] = true
		return nil
	}
	for _, node := range nodeNames(spec) {
		if err := visit(node, nil); err != nil {
			return err
		}
	}
	return nil
}

// ResolvedJSON is the router's --graph-json: the spec with every resolved
// step's serviceUrl filled in from urls. Keys are sorted by encoding/json, so
// the same graph always gives the same bytes.
func ResolvedJSON(spec *v1alpha1.InferenceGraphSpec, urls map[StepRef]string) ([]byte, error) {
	resolved := spec.DeepCopy()
	for ref, u := range urls {
		node, ok := resolved.Nodes[ref.Node]
		if !ok || ref.Index >= len(node.Steps) {
			return nil, fmt.Errorf("%s does not exist in the graph", ref.Field())
		}
		node.Steps[ref.Index].ServiceURL = u
	}
	return json.Marshal(resolved)
}

func nodeNames(spec *v1alpha1.InferenceGraphSpec) []string {
	names := make([]string, 0, len(spec.Nodes))
	for n := range spec.Nodes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkURL accepts what the router accepts: an absolute http or https URL.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("does not parse (%v)", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("is not an http or https URL")
	case u.Host == "":
		return errors.New("has no host")
	}
	return nil
}
