package router

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The router decodes its own copy of the InferenceGraph spec so that it depends
// on nothing else in this repository. Field names follow the serving.kserve.io
// v1alpha1 InferenceGraphSpec; fields the router does not use (resources,
// affinity, scaling...) are ignored.

const rootNodeName = "root"

// Router types of a node.
const (
	typeSequence = "Sequence"
	typeSplitter = "Splitter"
	typeEnsemble = "Ensemble"
	typeSwitch   = "Switch"
)

// Values of a step's data and dependency fields.
const (
	dataResponse   = "$response"
	dataRequest    = "$request"
	dependencyHard = "Hard"
	dependencySoft = "Soft"
)

type graphSpec struct {
	Nodes          map[string]nodeSpec `json:"nodes"`
	Timeout        *seconds            `json:"timeout,omitempty"`
	RouterTimeouts *routerTimeouts     `json:"routerTimeouts,omitempty"`
}

type routerTimeouts struct {
	ServerRead    *seconds `json:"serverRead,omitempty"`
	ServerWrite   *seconds `json:"serverWrite,omitempty"`
	ServerIdle    *seconds `json:"serverIdle,omitempty"`
	ServiceClient *seconds `json:"serviceClient,omitempty"`
}

type nodeSpec struct {
	RouterType string     `json:"routerType"`
	Steps      []stepSpec `json:"steps,omitempty"`
}

type stepSpec struct {
	Name                      string   `json:"name,omitempty"`
	NodeName                  string   `json:"nodeName,omitempty"`
	ServiceName               string   `json:"serviceName,omitempty"`
	ServiceURL                string   `json:"serviceUrl,omitempty"`
	Data                      string   `json:"data,omitempty"`
	MapPredictionsToInstances bool     `json:"mapPredictionsToInstances,omitempty"`
	Weight                    *int64   `json:"weight,omitempty"`
	Condition                 string   `json:"condition,omitempty"`
	Dependency                string   `json:"dependency,omitempty"`
	Timeout                   *seconds `json:"timeout,omitempty"`
}

// seconds is a duration written in JSON as a number of seconds (KServe writes
// integers; fractions are accepted) or as a Go duration string such as "250ms".
// Zero means no limit.
type seconds time.Duration

func (s *seconds) UnmarshalJSON(data []byte) error {
	text := string(bytes.TrimSpace(data))
	if text == "null" {
		return nil
	}
	var d time.Duration
	if unquoted, err := strconv.Unquote(text); err == nil {
		if d, err = time.ParseDuration(unquoted); err != nil {
			f, ferr := strconv.ParseFloat(unquoted, 64)
			if ferr != nil {
				return fmt.Errorf("%q is neither a number of seconds nor a duration like \"30s\"", unquoted)
			}
			d = time.Duration(f * float64(time.Second))
		}
	} else {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return fmt.Errorf("%s is not a number of seconds", text)
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < 0 {
		return fmt.Errorf("%s is negative; use 0 for no limit or a positive number of seconds", text)
	}
	*s = seconds(d)
	return nil
}

// MarshalJSON writes the value back as a number of seconds.
func (s seconds) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, time.Duration(s).Seconds(), 'f', -1, 64), nil
}

// duration returns the value, or def when the field was not set.
func (s *seconds) duration(def time.Duration) time.Duration {
	if s == nil {
		return def
	}
	return time.Duration(*s)
}

// parseGraph decodes and checks the --graph-json value. Every error names the
// offending field and says how to fix it.
func parseGraph(data []byte) (*graphSpec, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("--graph-json is empty; pass the InferenceGraph spec as JSON")
	}
	var g graphSpec
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("--graph-json is not a valid InferenceGraph spec: %w", err)
	}
	if err := g.validate(); err != nil {
		return nil, fmt.Errorf("--graph-json: %w", err)
	}
	return &g, nil
}

func (g *graphSpec) validate() error {
	if _, ok := g.Nodes[rootNodeName]; !ok {
		return fmt.Errorf("nodes.%s is missing; the graph needs a node named %q where requests enter", rootNodeName, rootNodeName)
	}
	for _, name := range g.nodeNames() {
		if err := g.validateNode(name, g.Nodes[name]); err != nil {
			return err
		}
	}
	return g.checkCycles()
}

func (g *graphSpec) nodeNames() []string {
	names := make([]string, 0, len(g.Nodes))
	for name := range g.Nodes {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func (g *graphSpec) validateNode(name string, n nodeSpec) error {
	if n.RouterType == typeSequence && len(n.Steps) == 0 {
		return fmt.Errorf("nodes.%s.steps is empty; a Sequence needs at least one step", name)
	}
	for i, s := range n.Steps {
		field := fmt.Sprintf("nodes.%s.steps[%d]", name, i)
		if err := g.validateStep(field, s); err != nil {
			return err
		}
	}
	return nil
}

func (g *graphSpec) validateStep(field string, s stepSpec) error {
	if s.Weight != nil && *s.Weight < 0 {
		return fmt.Errorf("%s.weight is %d; weights are percentages from 0 to 100", field, *s.Weight)
	}
	if s.NodeName != "" {
		if _, ok := g.Nodes[s.NodeName]; !ok {
			return fmt.Errorf("%s.nodeName refers to node %q, which is not in nodes", field, s.NodeName)
		}
		return nil
	}
	if s.ServiceURL == "" {
		if s.ServiceName != "" {
			return fmt.Errorf("%s.serviceUrl is empty; the controller must resolve serviceName %q into serviceUrl", field, s.ServiceName)
		}
		return fmt.Errorf("%s has no target; set nodeName or serviceUrl", field)
	}
	u, err := url.Parse(s.ServiceURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s.serviceUrl %q is not an absolute http(s) URL", field, s.ServiceURL)
	}
	return nil
}

// checkCycles rejects node references that loop, which would otherwise recurse
// until the process runs out of stack.
func (g *graphSpec) checkCycles() error {
	const (
		unvisited = iota
		active
		done
	)
	state := make(map[string]int, len(g.Nodes))
	var path []string
	var visit func(name string) error
	visit = func(name string) error {
		switch state[name] {
		case active:
			start := slices.Index(path, name)
			loop := append(slices.Clone(path[start:]), name)
			return fmt.Errorf("nodes form a cycle %s; a node may not reach itself through nodeName", strings.Join(loop, " -> "))
		case done:
			return nil
		}
		state[name] = active
		path = append(path, name)
		for _, s := range g.Nodes[name].Steps {
			if s.NodeName != "" {
				if err := visit(s.NodeName); err != nil {
					return err
				}
			}
		}
		path = path[:len(path)-1]
		state[name] = done
		return nil
	}
	for _, name := range g.nodeNames() {
		if err := visit(name); err != nil {
			return err
		}
	}
	return nil
}

// warnings lists values the router tolerates, as KServe does, but that are
// probably mistakes.
func (g *graphSpec) warnings() []string {
	var out []string
	for _, name := range g.nodeNames() {
		n := g.Nodes[name]
		switch n.RouterType {
		case typeSequence, typeSplitter, typeEnsemble, typeSwitch:
		default:
			out = append(out, fmt.Sprintf("nodes.%s.routerType %q is not Sequence, Splitter, Ensemble or Switch; requests reaching it fail with 500", name, n.RouterType))
		}
		for i, s := range n.Steps {
			if s.Dependency != "" && s.Dependency != dependencyHard && s.Dependency != dependencySoft {
				out = append(out, fmt.Sprintf("nodes.%s.steps[%d].dependency %q is treated as Soft", name, i, s.Dependency))
			}
			if s.Data != "" && s.Data != dataRequest && s.Data != dataResponse {
				out = append(out, fmt.Sprintf("nodes.%s.steps[%d].data %q is treated as $request", name, i, s.Data))
			}
		}
	}
	return out
}
