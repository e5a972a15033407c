package nodecache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fsmserve/fsmserve/internal/golden"
	"github.com/fsmserve/fsmserve/machines/engine/enginetest"
)

var phases = []Phase{NotStarted, Running, Succeeded, GaveUp}

// observationFromBits builds one observation per combination of eight facts,
// so tests can sweep every combination.
func observationFromBits(bits uint16) Observation {
	bit := func(i uint) bool { return bits&(1<<i) != 0 }
	o := Observation{
		Model: "llama", SourceModelUri: "gs://models/llama",
		InSpec:   !bit(0),
		Folder:   Folder{Path: "/mnt/models/models/0123456789abcdef", Verified: bit(1)},
		Capacity: Capacity{Fits: !bit(2), NodeGroup: "gpu", Limit: "10Gi", Need: "6Gi", Free: "4Gi"},
		Download: Download{Phase: phases[(bits>>3)&3]},
		Evicted:  bit(5),
	}
	if !o.Folder.Verified {
		o.Folder.Problem = "does not exist"
	}
	if o.Download.Phase == GaveUp {
		o.Download.Reason, o.Download.Message = "BackoffLimitExceeded", "3 attempts failed"
	}
	if bit(6) {
		o.Download.SharedWith = "team-a/llama"
	}
	if bit(7) {
		o.Capacity.Holders = []string{"bert (6Gi)"}
	}
	return o
}

func allObservations() []Observation {
	out := make([]Observation, 0, 1<<8)
	for bits := uint16(0); bits < 1<<8; bits++ {
		out = append(out, observationFromBits(bits))
	}
	return out
}

func TestDeclarationIsValid(t *testing.T) {
	require.NoError(t, Machine.Validate())
}

func TestEveryStateTimesTriggerTable(t *testing.T) {
	golden.Assert(t, "testdata/transitions.txt", enginetest.Table(Machine))
}

func TestLiveMachineMatchesDeclaration(t *testing.T) {
	enginetest.CheckLiveMatchesDeclared(t, Machine, StateUnknown, allObservations())
}

func TestClassifyOnlyReturnsPermittedTriggers(t *testing.T) {
	enginetest.CheckClassifyIsPermitted(t, Machine, StateUnknown, allObservations())
}

func TestEveryStateCanReachASettledState(t *testing.T) {
	enginetest.CheckNoStuckStates(t, Machine)
}

func TestDiagramsAreCurrent(t *testing.T) {
	golden.Assert(t, "testdata/nodecache.dot", Machine.DOT())
	golden.Assert(t, "testdata/nodecache.mmd", Machine.Mermaid())
}

func FuzzTriggerSequences(f *testing.F) {
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{255, 1, 0x02, 1, 0x08, 1, 0x12})
	f.Add([]byte{4, 1, 0x01, 1, 0x21, 2, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.RunSequence(t, Machine, StateUnknown, func(b byte) Observation {
			return observationFromBits(uint16(b))
		}, data)
	})
}
