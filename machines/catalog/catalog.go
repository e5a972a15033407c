// Package catalog lists fsmserve's lifecycle machines for the CLI and the
// generated documentation.
package catalog

import (
	"sort"

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
