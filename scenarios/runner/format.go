// Package runner loads scenario files (YAML stories of steps, see
// scenarios/README.md) and runs them against a kube-apiserver in which
// fsmserve's controllers run in the same process.
package runner

import (
	"encoding/json"
	"regexp"
	"time"
)

// Scenario is one parsed scenario file.
type Scenario struct {
	// Name is shown in every failure and names the scenario's namespace.
	Name string `json:"name"`
	// Description says what the story shows, for people.
	Description string `json:"description,omitempty"`
	// Requires is what the story needs of its host (nil: any host).
	Requires *Requires `json:"requires,omitempty"`
	// Steps run in order; the first failing step ends the scenario.
	Steps []Step `json:"steps"`
	// File is the path the scenario was loaded from ("" when parsed from bytes
	// without a name).
	File string `json:"-"`
}

// Step is one step of a story: exactly one action, plus an optional name and
// namespace override.
type Step struct {
	// Name is shown in failures and progress output.
	Name string `json:"name,omitempty"`
	// Namespace replaces the scenario namespace for this step's action.
	Namespace string `json:"namespace,omitempty"`
	// Requires is what this step needs of its host: a host without it skips
	// the step (and lists it, with the reason) and goes on.
	Requires *Requires `json:"requires,omitempty"`
	// Refused expects the API server (its admission, its quotas) to refuse
	// the step's apply, patch or delete with a message that matches.
	Refused *Match `json:"refused,omitempty"`

	Apply   *Manifests `json:"apply,omitempty"`
	Patch   *Patch     `json:"patch,omitempty"`
	Delete  string     `json:"delete,omitempty"`
	Expect  *Expect    `json:"expect,omitempty"`
	World   *World     `json:"world,omitempty"`
	Advance *Duration  `json:"advance,omitempty"`
	Wait    *Duration  `json:"wait,omitempty"`
}

// Action keys, in the order they are documented.
const (
	actionApply   = "apply"
	actionPatch   = "patch"
	actionDelete  = "delete"
	actionExpect  = "expect"
	actionWorld   = "world"
	actionAdvance = "advance"
	actionWait    = "wait"
)

// actionKeys lists every action a step can hold.
var actionKeys = []string{actionApply, actionPatch, actionDelete, actionExpect, actionWorld, actionAdvance, actionWait}

// Manifests are the objects of an apply step: one or more YAML documents in a
// string, one mapping, or a list of mappings. Each document is kept as JSON.
type Manifests struct {
	Docs []json.RawMessage
}

// Patch is a JSON merge patch of one object.
type Patch struct {
	// Object is Kind/name (or Kind.group/name).
	Object string `json:"object"`
	// Namespace overrides the step namespace (same meaning as Step.Namespace).
	Namespace string `json:"namespace,omitempty"`
	// Merge is the JSON merge patch (RFC 7386).
	Merge json.RawMessage `json:"merge"`
	// Subresource is "" (the object) or "status".
	Subresource string `json:"subresource,omitempty"`
}

// Expect lists what must hold, polled until all of it holds or Within passes.
type Expect struct {
	// Object is Kind/name; every check but Children needs it.
	Object string `json:"object,omitempty"`
	// Namespace overrides the step namespace (same meaning as Step.Namespace).
	Namespace string `json:"namespace,omitempty"`
	// State matches .status.lifecycle.state.
	State *Match `json:"state,omitempty"`
	// Reason matches .status.lifecycle.reason.
	Reason *Match `json:"reason,omitempty"`
	// Conditions maps a condition type to what its status (and optionally
	// reason and message) must be.
	Conditions map[string]ConditionExpect `json:"conditions,omitempty"`
	// Fields maps a JSONPath (".status.url") to what it must print.
	Fields map[string]Match `json:"fields,omitempty"`
	// Events are Event reasons that must exist on the object, in this order.
	Events []string `json:"events,omitempty"`
	// EventsAbsent are Event reasons that must not exist on the object.
	EventsAbsent []string `json:"eventsAbsent,omitempty"`
	// Passed are states the object must have entered, in this order
	// (from its lifecycle history or its Events).
	Passed []Passed `json:"passed,omitempty"`
	// Children are objects that must or must not exist.
	Children *Children `json:"children,omitempty"`
	// Spans are span names that must exist in the object's current trace.
	Spans []string `json:"spans,omitempty"`
	// Within bounds the polling; the harness default (15s) when nil.
	Within *Duration `json:"within,omitempty"`
}

// ConditionExpect is what one condition must be. Written either as a status
// ("True", True, "<absent>") or as {status, reason, message}.
type ConditionExpect struct {
	Status  Match  `json:"status"`
	Reason  *Match `json:"reason,omitempty"`
	Message *Match `json:"message,omitempty"`
}

// Children lists objects (Kind/name, in the expectation's namespace for
// namespaced kinds) that must exist and that must not.
type Children struct {
	Present []string `json:"present,omitempty"`
	Absent  []string `json:"absent,omitempty"`
	// Gone are objects that must be absent or being deleted: what a
	// deletion held by a finalizer no controller removes (envtest) and a
	// finished one (a live cluster) have in common.
	Gone []string `json:"gone,omitempty"`
}

// Match is an expected string: a literal, "~regex" (unanchored, Go syntax) or
// "<absent>" (the value does not exist).
type Match struct {
	raw    string
	re     *regexp.Regexp
	absent bool
}

// AbsentMarker is the Match text that expects a value not to exist.
const AbsentMarker = "<absent>"

// Duration is a Go duration written as a string with a unit: "30s", "1m30s".
type Duration time.Duration

// World is one change a real controller would make and envtest does not.
// Exactly one field is set.
type World struct {
	DeploymentAvailable   *DeploymentTarget  `json:"deploymentAvailable,omitempty"`
	DeploymentProgressing *DeploymentTarget  `json:"deploymentProgressing,omitempty"`
	DeploymentUnavailable *DeploymentTarget  `json:"deploymentUnavailable,omitempty"`
	DeploymentFailed      *DeploymentFailure `json:"deploymentFailed,omitempty"`
	JobSucceeded          *JobTarget         `json:"jobSucceeded,omitempty"`
	JobFailed             *JobFailure        `json:"jobFailed,omitempty"`
	JobRunning            *JobTarget         `json:"jobRunning,omitempty"`
	PodsReady             *JobTarget         `json:"podsReady,omitempty"`
	PodsStuck             *PodsStuck         `json:"podsStuck,omitempty"`
	// Within bounds the wait for the selected objects to exist; the harness
	// default (15s) when nil.
	Within *Duration `json:"within,omitempty"`
}

// Selection picks objects by name or by label selector (exactly one).
// In the string form, text with any of `=!,()` or a space is a selector,
// anything else a name.
type Selection struct {
	Name     string `json:"name,omitempty"`
	Selector string `json:"selector,omitempty"`
}

// DeploymentTarget selects Deployments; Replicas overrides .spec.replicas.
type DeploymentTarget struct {
	Selection
	Replicas *int32 `json:"replicas,omitempty"`
}

// DeploymentFailure selects Deployments whose rollout failed.
type DeploymentFailure struct {
	Selection
	// Reason of Progressing=False; ProgressDeadlineExceeded by default.
	Reason string `json:"reason,omitempty"`
	// Message of the failing conditions.
	Message string `json:"message,omitempty"`
	// ReplicaFailure, when set, adds ReplicaFailure=True with this reason
	// (e.g. FailedCreate).
	ReplicaFailure string `json:"replicaFailure,omitempty"`
}

// JobTarget selects Jobs (or Pods, for podsReady).
type JobTarget struct {
	Selection
}

// PodsStuck selects pods that cannot run: unschedulable (reason
// Unschedulable, the default: the scheduler's message) or with containers
// the kubelet cannot start (a container waiting reason such as
// ImagePullBackOff, and its message).
type PodsStuck struct {
	Selection
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// JobFailure selects Jobs that failed.
type JobFailure struct {
	Selection
	// Reason of Failed=True; BackoffLimitExceeded by default.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}
