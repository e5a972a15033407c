package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fsmserve/fsmserve/internal/golden"
)

func TestEffectiveEdgesInheritAndOverride(t *testing.T) {
	bp := toySpec().Blueprint()
	assert.Equal(t, Outcome[toyState]{Destinations: []toyState{tGone}}, bp.OutcomeOf(tRunning, trCancel))
	assert.Equal(t, Outcome[toyState]{Ignored: true}, bp.OutcomeOf(tDone, trCancel))
	assert.Equal(t, Outcome[toyState]{Destinations: []toyState{tRunning}}, bp.OutcomeOf(tQueued, trStart))
	assert.False(t, bp.OutcomeOf(tQueued, trRetry).Permitted())
	assert.ElementsMatch(t, []toyState{tDone, tFailed, tQueued, tGone}, bp.Successors(tRunning))
}

func TestSuperstateEdgeIntoCurrentStateReadsAsIgnored(t *testing.T) {
	s := toySpec()
	s.Define = func(b *Builder[toyState, toyTrigger, toyObs]) {
		defineToy(b)
		b.Configure(tAlive).Permit(trRetry, tQueued)
	}
	bp := s.Blueprint()
	assert.Equal(t, Outcome[toyState]{Ignored: true}, bp.OutcomeOf(tQueued, trRetry))
	assert.Equal(t, Outcome[toyState]{Destinations: []toyState{tQueued}}, bp.OutcomeOf(tRunning, trRetry))
}

func TestStuckStates(t *testing.T) {
	assert.Empty(t, toySpec().StuckStates())
	s := toySpec()
	s.Define = func(b *Builder[toyState, toyTrigger, toyObs]) {
		b.Configure(tQueued).Permit(trStart, tRunning)
		b.Configure(tRunning).Permit(trFail, tFailed)
		b.Configure(tRecover).Permit(trStart, tRunning)
	}
	assert.Equal(t, []toyState{tFailed, tQueued, tRecover, tRunning}, s.StuckStates())
}

func TestDiagramsAreStable(t *testing.T) {
	golden.Assert(t, "testdata/toy.dot", toySpec().DOT())
	golden.Assert(t, "testdata/toy.mmd", toySpec().Mermaid())
}
