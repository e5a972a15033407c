package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fsmserve/fsmserve/api/common"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func fixedNow() time.Time { return t0 }

func TestValidateAcceptsToy(t *testing.T) {
	require.NoError(t, toySpec().Validate())
}

func TestValidateRejectsBadDeclarations(t *testing.T) {
	cases := map[string]func(*Definition[toyState, toyTrigger, toyObs]){
		"duplicate state":     func(s *Definition[toyState, toyTrigger, toyObs]) { s.States = append(s.States, s.States[1]) },
		"duplicate trigger":   func(s *Definition[toyState, toyTrigger, toyObs]) { s.Triggers = append(s.Triggers, s.Triggers[0]) },
		"undeclared initial":  func(s *Definition[toyState, toyTrigger, toyObs]) { s.Initial = "Nowhere" },
		"undeclared recovery": func(s *Definition[toyState, toyTrigger, toyObs]) { s.Recovery = "Nowhere" },
		"undeclared recovery trigger": func(s *Definition[toyState, toyTrigger, toyObs]) {
			s.RecoveryTrigger = "Nowhere"
		},
		"edge to undeclared": func(s *Definition[toyState, toyTrigger, toyObs]) {
			s.Define = func(b *Builder[toyState, toyTrigger, toyObs]) {
				defineToy(b)
				b.Configure(tDone).Permit(trRetry, "Nowhere")
			}
		},
		"undeclared trigger": func(s *Definition[toyState, toyTrigger, toyObs]) {
			s.Define = func(b *Builder[toyState, toyTrigger, toyObs]) {
				defineToy(b)
				b.Configure(tDone).Permit("Bogus", tQueued)
			}
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			s := toySpec()
			mutate(s)
			assert.Error(t, s.Validate())
		})
	}
}

func TestNewStartsAtInitialOrStoredState(t *testing.T) {
	s := toySpec()
	assert.Equal(t, tQueued, s.New("", fixedNow).State())
	m := s.New("Running", fixedNow)
	assert.Equal(t, tRunning, m.State())
	assert.Empty(t, m.Journal())
}

func TestNewMapsUnknownAndAbstractStatesToRecovery(t *testing.T) {
	for _, stored := range []string{"Exploded", "Alive"} {
		m := toySpec().New(stored, fixedNow)
		assert.Equal(t, tRecover, m.State(), stored)
		require.Len(t, m.Journal(), 1)
		assert.Equal(t, Transition{From: stored, To: string(tRecover), Trigger: string(trUnknown), At: t0, Reason: "Recovering"}, m.Journal()[0])
	}
	// The recovery state re-derives from observation.
	m := toySpec().New("Exploded", fixedNow)
	_, err := m.Run(context.Background(), toyObs{started: true}, nil)
	require.NoError(t, err)
	assert.Equal(t, tRunning, m.State())
}

func TestFireNotPermittedIsTyped(t *testing.T) {
	m := toySpec().New("Queued", fixedNow)
	err := m.Fire(context.Background(), trFail, toyObs{})
	var np *NotPermittedError
	require.ErrorAs(t, err, &np)
	assert.Equal(t, "Queued", np.State)
	assert.Equal(t, "Fail", np.Trigger)
	assert.True(t, IsNotPermitted(err))
	assert.Equal(t, tQueued, m.State())
}

func TestFireWithUnmetGuardNamesTheGuard(t *testing.T) {
	// stateless forgets unmet guards when it falls back to a superstate, so the
	// names are reported for top-level states only.
	s := toySpec()
	s.Define = func(b *Builder[toyState, toyTrigger, toyObs]) {
		b.Configure(tQueued).Permit(trFinish, tDone, isUrgent)
	}
	m := s.New("Queued", fixedNow)
	err := m.Fire(context.Background(), trFinish, toyObs{urgent: false})
	var np *NotPermittedError
	require.ErrorAs(t, err, &np)
	assert.Contains(t, strings.Join(np.UnmetGuards, ","), "isUrgent")
}

func TestGuardsChooseTheEdge(t *testing.T) {
	m := toySpec().New("Queued", fixedNow)
	require.NoError(t, m.Fire(context.Background(), trFinish, toyObs{urgent: true}))
	assert.Equal(t, tDone, m.State())
}

func TestOverlappingGuardsBecomeDefinitionError(t *testing.T) {
	s := toySpec()
	s.Define = func(b *Builder[toyState, toyTrigger, toyObs]) {
		defineToy(b)
		b.Configure(tFailed).Permit(trFinish, tDone, always).Permit(trFinish, tQueued, always)
	}
	m := s.New("Failed", fixedNow)
	err := m.Fire(context.Background(), trFinish, toyObs{})
	var de *DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, tFailed, m.State())
}

func TestSuperstateTransitionsAreInheritedAndOverridable(t *testing.T) {
	m := toySpec().New("Running", fixedNow)
	require.NoError(t, m.Fire(context.Background(), trCancel, toyObs{}))
	assert.Equal(t, tGone, m.State())

	done := toySpec().New("Done", fixedNow)
	require.NoError(t, done.Fire(context.Background(), trCancel, toyObs{}))
	assert.Equal(t, tDone, done.State(), "Done ignores Cancel although Alive permits it")
}

func TestRunChainsTransitionsAndRunsEachActivityOnce(t *testing.T) {
	m := toySpec().New("Queued", fixedNow)
	visited := map[toyState]int{}
	act := func(_ context.Context, s toyState, o toyObs) toyObs {
		visited[s]++
		if s == tRunning {
			o.finished = true // the step's outcome feeds the next classification
		}
		return o
	}
	obs, err := m.Run(context.Background(), toyObs{started: true}, act)
	require.NoError(t, err)
	assert.True(t, obs.finished)
	assert.Equal(t, tDone, m.State())
	assert.Equal(t, map[toyState]int{tRunning: 1, tDone: 1}, visited)
	var path []string
	for _, tr := range m.Journal() {
		path = append(path, string(tr.From)+"-"+string(tr.Trigger)+"->"+string(tr.To))
	}
	assert.Equal(t, []string{"Queued-Start->Running", "Running-Finish->Done"}, path)
}

func TestRunStopsAtHopLimit(t *testing.T) {
	m := toySpec().New("Queued", fixedNow)
	runs := 0
	act := func(_ context.Context, _ toyState, o toyObs) toyObs { runs++; return o }
	_, err := m.Run(context.Background(), toyObs{started: true, loop: true}, act)
	var hl *HopLimitError
	require.ErrorAs(t, err, &hl)
	assert.Len(t, m.Journal(), MaxHops)
	assert.Equal(t, 2, runs, "each state's activity runs once per reconcile, however often it is visited")
}

func TestRunReportsNotPermittedAndStillRunsActivity(t *testing.T) {
	s := toySpec()
	s.Classify = func(toyState, toyObs) (toyTrigger, bool) { return trRetry, true }
	m := s.New("Queued", fixedNow)
	runs := 0
	_, err := m.Run(context.Background(), toyObs{}, func(_ context.Context, _ toyState, o toyObs) toyObs { runs++; return o })
	assert.True(t, IsNotPermitted(err))
	assert.Equal(t, 1, runs)
}

func TestWaitingForLeavesOutAmbientTriggers(t *testing.T) {
	m := toySpec().New("Running", fixedNow)
	assert.Equal(t, []string{"Finish", "Fail", "Loop"}, m.WaitingFor(context.Background()))
	q := toySpec().New("Queued", fixedNow)
	_, _ = q.Run(context.Background(), toyObs{urgent: true}, nil)
	assert.Equal(t, []string{"Finish"}, q.WaitingFor(context.Background()), "guards are evaluated against the observation")
}

func TestWriteLifecycleRecordsTransitionsAndExplanation(t *testing.T) {
	l := &common.Lifecycle{State: "Running"}
	m := toySpec().New("Running", fixedNow)
	_, err := m.Run(context.Background(), toyObs{failed: true}, nil)
	require.NoError(t, err)
	m.WriteLifecycle(context.Background(), l)
	assert.Equal(t, "toy", l.Machine)
	assert.Equal(t, "Failed", l.State)
	assert.Equal(t, "Running", l.PreviousState)
	assert.Equal(t, "Fail", l.Trigger)
	assert.Equal(t, "JobFailed", l.Reason)
	assert.Equal(t, t0, l.EnteredAt.Time)
	assert.Equal(t, []string{"Retry"}, l.WaitingFor)
	require.Len(t, l.History, 1)
	assert.Equal(t, "JobFailed", l.History[0].Reason)
}

func TestWriteLifecycleKeepsEnteredAtWithoutTransition(t *testing.T) {
	earlier := t0.Add(-time.Hour)
	l := &common.Lifecycle{State: "Running"}
	l.EnteredAt = ptrTime(earlier)
	m := toySpec().New("Running", fixedNow)
	m.WriteLifecycle(context.Background(), l)
	assert.Equal(t, earlier, l.EnteredAt.Time)
}

func TestHistoryIsBounded(t *testing.T) {
	l := &common.Lifecycle{}
	for i := 0; i < 9; i++ {
		l.Record(common.LifecycleTransition{From: "A", To: "B", Trigger: string(rune('a' + i))})
	}
	require.Len(t, l.History, common.MaxLifecycleHistory)
	assert.Equal(t, "i", l.History[len(l.History)-1].Trigger)
}

func TestErrorsReadWell(t *testing.T) {
	assert.Contains(t, (&HopLimitError{Machine: "toy", Path: []string{"A", "B"}}).Error(), "A -> B")
	assert.Contains(t, (&NotPermittedError{Machine: "toy", State: "A", Trigger: "T"}).Error(), "not permitted in state A")
	assert.False(t, IsNotPermitted(errors.New("other")))
}

func TestRunStopsOnIgnoredTrigger(t *testing.T) {
	m := toySpec().New("Done", fixedNow)
	runs := 0
	_, err := m.Run(context.Background(), toyObs{}, func(_ context.Context, _ toyState, o toyObs) toyObs { runs++; return o })
	require.NoError(t, err)
	s := toySpec()
	s.Classify = func(toyState, toyObs) (toyTrigger, bool) { return trCancel, true } // ignored in Done
	m = s.New("Done", fixedNow)
	_, err = m.Run(context.Background(), toyObs{}, func(_ context.Context, _ toyState, o toyObs) toyObs { runs++; return o })
	require.NoError(t, err)
	assert.Empty(t, m.Journal())
	assert.Equal(t, 2, runs)
}

func TestBeginClassifiesOnceForTheFirstStep(t *testing.T) {
	s := toySpec()
	calls := 0
	classify := s.Classify
	s.Classify = func(st toyState, o toyObs) (toyTrigger, bool) {
		calls++
		return classify(st, o)
	}
	m := s.New("Queued", fixedNow)
	obs := toyObs{started: true, finished: true}
	require.True(t, m.Begin(obs), "a started job is about to move")
	require.Equal(t, 1, calls)
	_, err := m.Run(context.Background(), obs, nil)
	require.NoError(t, err)
	assert.Equal(t, tDone, m.State())
	// Queued -> Running -> Done, then one classification that finds nothing:
	// Begin's answer served the first step.
	assert.Equal(t, 3, calls)
}

func TestBeginReportsARecoveryAsAMove(t *testing.T) {
	m := toySpec().New("Exploded", fixedNow)
	assert.True(t, m.Begin(toyObs{}), "mapping an unknown state to Recovery is a transition")
	m = toySpec().New("Done", fixedNow)
	assert.False(t, m.Begin(toyObs{}))
}

func TestAGuardGivenTheWrongTypeIsADefinitionError(t *testing.T) {
	s := toySpec()
	m := s.New("Queued", fixedNow)
	var def *DefinitionError
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &DefinitionError{Machine: s.Name, Problem: fmt.Sprint(r)}
			}
		}()
		return m.sm.FireCtx(context.Background(), trStart, "not an observation")
	}()
	require.ErrorAs(t, err, &def)
	var gte *GuardTypeError
	func() {
		defer func() {
			if r := recover(); r != nil {
				gte, _ = r.(*GuardTypeError)
			}
		}()
		typedGuard(isUrgent)(context.Background(), 42)
	}()
	require.NotNil(t, gte, "a mismatched argument must be reported, not read as a zero value")
	assert.Contains(t, gte.Error(), "isUrgent")
}

func TestActivitiesListsEachNameOnce(t *testing.T) {
	s := toySpec()
	s.States[1].Activity = "Enqueue"
	s.States[3].Activity = "Watch"
	s.States[5].Activity = "Watch"
	assert.Equal(t, []string{"Enqueue", "Watch"}, s.Activities())
}
