package enginetest

import (
	"testing"

	"github.com/fsmserve/fsmserve/internal/golden"
	"github.com/fsmserve/fsmserve/machines/engine"
)

// Battery is the set of checks every fsmserve machine owes, run as one
// table of subtests so a machine package states only what is its own: the
// observations to sweep and the name of its golden files.
type Battery[S ~string, T ~string, O any] struct {
	Definition *engine.Definition[S, T, O]
	// Name names the golden diagrams: testdata/<Name>.dot and .mmd.
	Name string
	// All is the full sweep of observations, for the cheap classify check.
	All []O
	// Representative covers both values of every fact the guards read, for
	// the costlier live-machine check.
	Representative []O
}

// Run checks the declaration, the state x trigger table and the diagrams
// against their golden files, the live machine against the declaration,
// that Classify only returns permitted triggers, and that every state can
// reach a settled one.
func (b Battery[S, T, O]) Run(t *testing.T) {
	t.Run("DeclarationIsValid", func(t *testing.T) {
		if err := b.Definition.Validate(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("EveryStateTimesTriggerTable", func(t *testing.T) {
		golden.Assert(t, "testdata/transitions.txt", Table(b.Definition))
	})
	t.Run("LiveMachineMatchesDeclaration", func(t *testing.T) {
		CheckLiveMatchesDeclared(t, b.Definition, b.Representative)
	})
	t.Run("ClassifyOnlyReturnsPermittedTriggers", func(t *testing.T) {
		CheckClassifyIsPermitted(t, b.Definition, b.All)
	})
	t.Run("EveryStateCanReachASettledState", func(t *testing.T) {
		CheckNoStuckStates(t, b.Definition)
	})
	t.Run("DiagramsAreCurrent", func(t *testing.T) {
		golden.Assert(t, "testdata/"+b.Name+".dot", b.Definition.DOT())
		golden.Assert(t, "testdata/"+b.Name+".mmd", b.Definition.Mermaid())
	})
}
