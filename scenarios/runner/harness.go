package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Defaults of a Harness.
const (
	DefaultWithin          = 15 * time.Second
	DefaultSystemNamespace = "kserve"
	// FieldOwner is the server-side apply manager of everything a scenario applies.
	FieldOwner = "fsmserve-scenario"
	// ScenarioAnnotation on a scenario namespace holds the scenario's name.
	ScenarioAnnotation = "scenarios.fsmserve.io/name"
	// ScenarioLabel ("true") marks scenario namespaces, so leftovers of an
	// interrupted run can be found: kubectl get ns -l scenarios.fsmserve.io/scenario.
	ScenarioLabel = "scenarios.fsmserve.io/scenario"
	// pollInterval paces expectations and waits for world targets.
	pollInterval = 100 * time.Millisecond
	// cleanupTimeout bounds the cleanup, which runs even when ctx is done.
	cleanupTimeout = 30 * time.Second
)

// Harness runs scenarios against one API server with the controllers under
// test running in the same process. Run is safe for concurrent use: each
// scenario gets its own namespace and keeps its own records.
type Harness struct {
	// Client talks to the API server; its scheme must be fsmserve's
	// (internal/scheme.New) so kinds resolve.
	Client client.Client
	// Clock is the fake clock the controllers use; advance steps move it. It is
	// shared: an advance in one scenario is seen by all running at once.
	Clock *clocktesting.FakeClock
	// Spans returns the spans the in-process controllers have ended so far
	// (e.g. tracetest.SpanRecorder.Ended); nil when spans are not recorded.
	Spans func() []sdktrace.ReadOnlySpan
	// SystemNamespace is where inferenceservice-config lives ("kserve" when
	// empty); scenarios refer to it as ${SYSTEM_NAMESPACE}.
	SystemNamespace string
	// DefaultWithin bounds expect and world steps that set no within
	// (DefaultWithin when zero).
	DefaultWithin time.Duration
	// Progress, when set, receives one line per step as it starts.
	Progress io.Writer
	// Host says what the cluster can do; the zero value is envtest with the
	// controllers in-process.
	Host Host
}

// StepError is a failed step. Its message is multi-line: what was expected
// and what was last observed.
type StepError struct {
	// File and Scenario name the scenario (Scenario.File, Scenario.Name).
	File     string
	Scenario string
	// Step is the 1-based number of the step in the file; StepName its name.
	Step     int
	StepName string
	// Action names the step's action, e.g. "expect" or "world deploymentFailed".
	Action string
	// Err says what went wrong; for expect, what was expected and observed.
	Err error
}

func (e *StepError) Error() string {
	return fmt.Sprintf("%s: scenario %q: %s: %s failed:\n%s",
		e.File, e.Scenario, stepLabel(e.Step, e.StepName), e.Action, strings.TrimRight(indent(e.Err.Error(), "  "), "\n"))
}

func (e *StepError) Unwrap() error { return e.Err }

// run is one scenario being run: its namespace and what it changed.
type run struct {
	h         *Harness
	scenario  *Scenario
	namespace string
	changes   changeLog
	outcome   *Outcome
	// step and stepName are the step being run, for skipped checks.
	step     int
	stepName string
}

// Run runs a scenario (RunOutcome) and returns only whether it failed.
func (h *Harness) Run(ctx context.Context, s *Scenario) error {
	_, err := h.RunOutcome(ctx, s)
	return err
}

// RunOutcome creates a fresh namespace (generateName scenario-), runs every
// step in order and, also on failure, deletes what the scenario created,
// restores objects it changed outside its namespace, and deletes the
// namespace. The outcome lists what the host could not do: a story whose
// requirements the host lacks is skipped whole; a step it has no real means
// for ends the story there, and the rest is listed as skipped.
func (h *Harness) RunOutcome(ctx context.Context, s *Scenario) (out *Outcome, err error) {
	if h.Client == nil || s == nil {
		return nil, errors.New("runner: Run needs a Harness with a Client and a scenario")
	}
	out = &Outcome{Host: h.Host.name()}
	if why := s.Requires.unmet(h.Host); why != "" {
		out.Skipped = why
		return out, nil
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		GenerateName: "scenario-",
		Labels:       map[string]string{ScenarioLabel: "true"},
		Annotations:  map[string]string{ScenarioAnnotation: s.Name},
	}}
	if err := h.Client.Create(ctx, ns); err != nil {
		return out, fmt.Errorf("%s: scenario %q: creating its namespace: %w", s.File, s.Name, err)
	}
	r := &run{h: h, scenario: s, namespace: ns.Name, outcome: out}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if cerr := r.cleanup(cctx, ns); cerr != nil {
			err = errors.Join(err, fmt.Errorf("%s: scenario %q: cleanup: %w", s.File, s.Name, cerr))
		}
	}()
	for i, step := range s.Steps {
		err := r.runStep(ctx, i+1, step)
		var skip *skipRest
		if errors.As(err, &skip) {
			r.skipFrom(i, skip.reason)
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// refusal turns the outcome of a step that expects a refusal into the
// step's result: the refusal it wanted passes, anything else fails.
func refusal(want *Match, err error) error {
	switch {
	case want == nil:
		return err
	case err == nil:
		return fmt.Errorf("the API server accepted it; want a refusal matching %s", want.want())
	case !want.check(err.Error(), true):
		return fmt.Errorf("refused, but not as expected (want %s): %w", want.want(), err)
	}
	return nil
}

// skipStep records the current step as skipped; the story goes on.
func (r *run) skipStep(step Step, why string) {
	r.outcome.SkippedSteps = append(r.outcome.SkippedSteps, Skip{Step: r.step, Name: step.Name, Action: stepAction(step), Reason: why})
}

// skipFrom records step i (0-based) and every later step as skipped.
func (r *run) skipFrom(i int, reason string) {
	for j := i; j < len(r.scenario.Steps); j++ {
		step := r.scenario.Steps[j]
		why := reason
		if j > i {
			why = fmt.Sprintf("the story cannot go on without step %d", i+1)
		}
		r.outcome.SkippedSteps = append(r.outcome.SkippedSteps, Skip{Step: j + 1, Name: step.Name, Action: stepAction(step), Reason: why})
	}
}

func (r *run) runStep(ctx context.Context, number int, step Step) error {
	action := stepAction(step)
	fail := func(err error) error {
		return &StepError{File: r.scenario.File, Scenario: r.scenario.Name, Step: number,
			StepName: step.Name, Action: action, Err: err}
	}
	r.step, r.stepName = number, step.Name
	if why := step.Requires.unmet(r.h.Host); why != "" {
		r.skipStep(step, why)
		return nil
	}
	r.progress("%s [%s] %s: %s\n", r.scenario.Name, r.namespace, stepLabel(number, step.Name), action)
	expanded, err := expandStep(step, map[string]string{
		PlaceholderNamespace:       r.namespace,
		PlaceholderSystemNamespace: r.h.systemNamespace(),
	})
	if err != nil {
		return fail(err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	err = refusal(expanded.Refused, r.do(ctx, expanded))
	var skip *skipRest
	if errors.As(err, &skip) {
		return err
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

func (r *run) do(ctx context.Context, step Step) error {
	switch {
	case step.Apply != nil:
		return r.apply(ctx, step)
	case step.Patch != nil:
		return r.patch(ctx, step)
	case step.Delete != "":
		return r.delete(ctx, step)
	case step.Expect != nil:
		return r.expect(ctx, step)
	case step.World != nil:
		return r.world(ctx, step)
	case step.Advance != nil:
		if r.h.Clock == nil {
			r.skipStep(step, "this host's controllers run on the real clock, which the runner cannot move")
			return nil
		}
		r.h.Clock.Step(step.Advance.D())
		return nil
	case step.Wait != nil:
		return sleep(ctx, step.Wait.D())
	}
	return errors.New("the step has no action")
}

// stepAction names the action a (checked) step holds.
func stepAction(s Step) string {
	switch {
	case s.Apply != nil:
		return actionApply
	case s.Patch != nil:
		return actionPatch
	case s.Delete != "":
		return actionDelete
	case s.Expect != nil:
		return actionExpect
	case s.World != nil:
		if names := worldActions(s.World); len(names) == 1 {
			return actionWorld + " " + names[0]
		}
		return actionWorld
	case s.Advance != nil:
		return actionAdvance + " " + s.Advance.D().String()
	case s.Wait != nil:
		return actionWait + " " + s.Wait.D().String()
	}
	return "no action"
}

// namespaceFor picks the namespace of a step: the action's override, the
// step's, or the scenario's.
func (r *run) namespaceFor(step Step, action string) string {
	switch {
	case action != "":
		return action
	case step.Namespace != "":
		return step.Namespace
	}
	return r.namespace
}

func (r *run) progress(format string, args ...any) {
	if r.h.Progress != nil {
		_, _ = fmt.Fprintf(r.h.Progress, format, args...)
	}
}

func (h *Harness) systemNamespace() string {
	if h.SystemNamespace != "" {
		return h.SystemNamespace
	}
	return DefaultSystemNamespace
}

// within returns a step's time bound or the harness default.
func (h *Harness) within(d *Duration) time.Duration {
	switch {
	case d != nil:
		return d.D()
	case h.DefaultWithin > 0:
		return h.DefaultWithin
	}
	return DefaultWithin
}

// resolve maps a reference to its kind's served version and scope.
func (h *Harness) resolve(ref objectRef) (kindInfo, error) {
	return resolveKind(h.Client, ref.Kind, ref.Group, ref.explicitGroup)
}

// pollUntil calls done every pollInterval until it reports true, fails, or
// within has passed; timedOut says which.
func pollUntil(ctx context.Context, within time.Duration, done func() (bool, error)) (timedOut bool, err error) {
	deadline := time.Now().Add(within)
	for {
		ok, err := done()
		if ok || err != nil {
			return false, err
		}
		if time.Now().After(deadline) {
			return true, nil
		}
		if err := sleep(ctx, pollInterval); err != nil {
			return false, err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
