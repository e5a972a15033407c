package runner

import (
	"errors"
	"fmt"
)

// Host says what the cluster a harness runs against can do. The zero value
// is the envtest host: fsmserve's controllers in the runner's process on the
// harness's fake clock, no Deployment, Job or Pod controllers (the runner
// plays them) and no admission webhooks.
type Host struct {
	// Name shows in reports: "envtest", "live".
	Name string
	// Live means the cluster runs its own controllers and nodes
	// (kube-controller-manager, a scheduler, kwok or kubelets) and fsmserve
	// itself. World changes are then made by real means or waited for, and
	// never written over a status those controllers own.
	Live bool
	// Admission means fsmserve's admission webhooks serve in this cluster.
	Admission bool
	// PodFaults means the cluster's nodes play pod faults (internal/podfault):
	// the dev cluster's kwok nodes do.
	PodFaults bool
}

// name is the host's name for reports.
func (h Host) name() string {
	switch {
	case h.Name != "":
		return h.Name
	case h.Live:
		return "live"
	}
	return "envtest"
}

// Requires is what a story needs of its host; a host that lacks it skips
// the whole story and says why.
type Requires struct {
	// Admission is "on" (the story expects fsmserve's webhooks to refuse or
	// default what it applies) or "off" (it applies what admission would
	// refuse, to show what the lifecycle does with objects that got past it).
	Admission string `json:"admission,omitempty"`
	// Host is "envtest" or "live", for stories that can only be told on one.
	Host string `json:"host,omitempty"`
	// Why says, for people, why the story needs it; required.
	Why string `json:"why"`
}

func (q *Requires) validate() error {
	if q.Admission != "" && q.Admission != "on" && q.Admission != "off" {
		return fmt.Errorf(`requires.admission %q: "on" or "off"`, q.Admission)
	}
	if q.Host != "" && q.Host != "envtest" && q.Host != "live" {
		return fmt.Errorf(`requires.host %q: "envtest" or "live"`, q.Host)
	}
	if q.Admission == "" && q.Host == "" {
		return errors.New(`requires needs "admission" or "host"`)
	}
	if q.Why == "" {
		return errors.New(`requires.why is required: say why the story needs this of its host`)
	}
	return nil
}

// unmet says why host cannot tell a story that requires q ("" when it can).
func (q *Requires) unmet(h Host) string {
	if q == nil {
		return ""
	}
	admission := map[bool]string{true: "on", false: "off"}[h.Admission]
	switch {
	case q.Host != "" && q.Host != h.name():
		return fmt.Sprintf("needs the %s host, this is %s: %s", q.Host, h.name(), q.Why)
	case q.Admission != "" && q.Admission != admission:
		return fmt.Sprintf("needs admission %s, this host has it %s: %s", q.Admission, admission, q.Why)
	}
	return ""
}

// Outcome is what a story did on its host besides passing or failing.
type Outcome struct {
	// Host names the host it ran on.
	Host string
	// Skipped says why the story was not told at all on this host ("" when it was).
	Skipped string
	// SkippedSteps are the steps not taken, each with why.
	SkippedSteps []Skip
	// SkippedChecks are the checks of expectations not made, each with why.
	SkippedChecks []Skip
}

// Skip is one step, or one check of a step, that was not made.
type Skip struct {
	Step   int
	Name   string
	Action string
	Reason string
}

func (s Skip) String() string {
	return fmt.Sprintf("%s %s: %s", stepLabel(s.Step, s.Name), s.Action, s.Reason)
}

// skipRest is returned by a step the host cannot take: it and every later
// step are skipped, because the story cannot go on without it.
type skipRest struct{ reason string }

func (s *skipRest) Error() string { return s.reason }

// skipCheck records a check not made in the current step, once per reason.
func (r *run) skipCheck(reason string) {
	for _, s := range r.outcome.SkippedChecks {
		if s.Step == r.step && s.Reason == reason {
			return
		}
	}
	r.outcome.SkippedChecks = append(r.outcome.SkippedChecks, Skip{Step: r.step, Name: r.stepName, Action: actionExpect, Reason: reason})
}
