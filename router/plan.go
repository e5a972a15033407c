package router

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// plan is the graph compiled once at start-up: node references resolved to
// pointers and everything a request needs per step (labels, span names,
// metric observers) computed ahead, so the hot path only looks things up.
type plan struct {
	root  *planNode
	nodes map[string]*planNode
}

type planNode struct {
	name       string
	routerType string
	steps      []*planStep
}

type planStep struct {
	node  *planNode // the node this step belongs to
	index int
	label string // the step name, or its index when unnamed (KServe's ensemble key)
	desc  string // how errors and logs name the step

	child  *planNode // set when the step targets another node
	url    string    // set when the step calls a service
	target string    // url, or "node:<name>"

	fromResponse   bool
	mapPredictions bool
	weight         int64
	condition      string
	hard           bool
	timeout        time.Duration
	timeoutCause   *timeoutError

	ensembleKey []byte // quoted JSON key
	shadowed    bool   // a later step of the same ensemble has the same key

	spanName  string
	spanOpts  []trace.SpanStartOption
	spanAttrs []attribute.KeyValue
	latency   prometheus.Observer
}

func compilePlan(g *graphSpec, m *metrics) *plan {
	p := &plan{nodes: make(map[string]*planNode, len(g.Nodes))}
	for name, n := range g.Nodes {
		p.nodes[name] = &planNode{name: name, routerType: n.RouterType}
	}
	for name, n := range g.Nodes {
		pn := p.nodes[name]
		for i, s := range n.Steps {
			pn.steps = append(pn.steps, compileStep(p, pn, i, s, m))
		}
		markShadowedKeys(pn)
	}
	p.root = p.nodes[rootNodeName]
	return p
}

func compileStep(p *plan, pn *planNode, i int, s stepSpec, m *metrics) *planStep {
	ps := &planStep{
		node:           pn,
		index:          i,
		label:          s.Name,
		url:            s.ServiceURL,
		target:         s.ServiceURL,
		fromResponse:   s.Data == dataResponse,
		mapPredictions: s.MapPredictionsToInstances,
		condition:      s.Condition,
		hard:           s.Dependency == dependencyHard,
		timeout:        s.Timeout.duration(0),
	}
	kind := trace.SpanKindClient
	if ps.label == "" {
		ps.label = strconv.Itoa(i)
		ps.desc = fmt.Sprintf("step %d of node %q", i, pn.name)
	} else {
		ps.desc = fmt.Sprintf("step %q of node %q", s.Name, pn.name)
	}
	if s.Weight != nil {
		ps.weight = *s.Weight
	}
	if s.NodeName != "" {
		ps.child = p.nodes[s.NodeName]
		ps.url = ""
		ps.target = "node:" + s.NodeName
		kind = trace.SpanKindInternal
	}
	if ps.timeout > 0 {
		ps.timeoutCause = &timeoutError{limit: ps.timeout, what: "timeout of " + ps.desc, step: ps}
	}
	ps.ensembleKey, _ = json.Marshal(ps.label) // a string always marshals
	ps.spanName = "Step " + ps.label
	ps.spanOpts = []trace.SpanStartOption{trace.WithSpanKind(kind)}
	ps.spanAttrs = []attribute.KeyValue{
		attrRouterNode.String(pn.name),
		attrRouterType.String(pn.routerType),
		attrRouterStep.String(ps.label),
		attrRouterTarget.String(ps.target),
	}
	ps.latency = m.stepLatency.WithLabelValues(pn.name, ps.label)
	return ps
}

// markShadowedKeys mirrors KServe, which builds the ensemble output in a map:
// when two steps share a key, the later one wins.
func markShadowedKeys(pn *planNode) {
	seen := map[string]bool{}
	for i := len(pn.steps) - 1; i >= 0; i-- {
		s := pn.steps[i]
		s.shadowed = seen[s.label]
		seen[s.label] = true
	}
}
