// Package catalog lists fsmserve's lifecycle machines for the CLI and the
// generated documentation.
package catalog

import (
	"sort"

	"github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/machines/inferenceservice"
)

// Machine is what the CLI and the docs need from a lifecycle declaration.
type Machine interface {
	DOT() string
	Mermaid() string
	Markdown(title, intro string) string
	Validate() error
}

// Entry is one machine with its page title and introduction.
type Entry struct {
	Name    string
	Title   string
	Intro   string
	Machine Machine
}

var entries = []Entry{
	{Name: inferenceservice.MachineName, Title: "InferenceService lifecycle", Intro: inferenceserviceIntro, Machine: inferenceservice.Machine},
	{Name: inferencegraph.MachineName, Title: "InferenceGraph lifecycle", Intro: inferencegraphIntro, Machine: inferencegraph.Machine},
}

// All returns every machine, sorted by name.
func All() []Entry {
	out := append([]Entry(nil), entries...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Get returns the machine with the given name.
func Get(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Names lists the machine names.
func Names() []string {
	var out []string
	for _, e := range All() {
		out = append(out, e.Name)
	}
	return out
}

const inferenceserviceIntro = `
The lifecycle of an InferenceService predictor in Standard mode (a Deployment, a
Service, an HPA and, when configured, an Ingress). The current state is
` + "`status.lifecycle.state`" + ` (the STATE column of ` + "`kubectl get isvc`" + `); ` + "`kubectl describe isvc`" + `
shows the previous state, the trigger, the reason, what it waits for, the last
five transitions and the trace ID of the current episode. Every transition is an
Event whose reason names the edge (the failure reason on failure edges) and a
span in the episode's trace.

KServe's conditions are derived from what is observed, not from the state:
` + "`PredictorReady`" + ` follows the Deployment's conditions exactly as KServe reads them,
` + "`Ready`" + ` is ` + "`PredictorReady ∧ IngressReady`" + `, ` + "`Reconciling`" + ` is True in Progressing and
Degraded states and ` + "`Stalled`" + ` in Blocked ones, so kstatus-aware tools (Flux, Argo
CD, ` + "`kubectl wait`" + `) see a rollout finish or get stuck.
`

const inferencegraphIntro = `
The lifecycle of an InferenceGraph in Standard mode: one router Deployment, Service
(port 80 to the router's 8080) and HPA, all named after the graph and labelled
` + "`serving.kserve.io/inferencegraph`" + `. The current state is ` + "`status.lifecycle.state`" + `
(the STATE column of ` + "`kubectl get ig`" + `); ` + "`kubectl describe ig`" + ` shows the reason, the
message, what it waits for, the last five transitions and the trace ID of the
current episode. Every transition is an Event and a span in the episode's trace.

Each ` + "`serviceName`" + ` step is resolved to its InferenceService's ` + "`status.address.url`" + ` plus
the model path of its protocol (` + "`/v1/models/{model}:predict`" + ` or ` + "`/v2/models/{model}/infer`" + `),
with the model name and protocol derived as KServe derives them. A step whose
InferenceService is missing or not Ready holds the graph in
` + "`WaitingForInferenceService`" + `, or moves a graph that was Ready to ` + "`Degraded`" + `; the
message names the InferenceService, the step and why. fsmserve watches
InferenceServices and wakes exactly the graphs that name them; nothing polls.
When a resolved URL changes, the router's pod template changes and the router
rolls (` + "`RollingOut`" + `, still Ready).

` + "`Ready`" + ` is True only while the router Deployment's ` + "`Available`" + ` condition is True and
it runs the current graph (KServe reports Ready as soon as the condition exists,
whatever its status), and ` + "`status.url`" + ` (` + "`http://`" + ` and the ingress ` + "`domainTemplate`" + ` of
the graph's name) is set only while the router is available. ` + "`Reconciling`" + ` and
` + "`Stalled`" + ` follow the state's kind as for InferenceServices.

The router container runs ` + "`fsmserve router`" + ` explicitly (` + "`command: [fsmserve, router]`" + `)
with KServe's arguments (` + "`--graph-json <resolved spec>`" + `); its image is the
` + "`image`" + ` of the ` + "`router`" + ` key of inferenceservice-config, as in KServe. Point that key
at an image that contains the fsmserve binary: KServe's default
` + "`kserve/router`" + ` image does not, and a router that cannot start ends in ` + "`Failed`" + `
(ProgressDeadlineExceeded) with a message that says to check the image.
`
