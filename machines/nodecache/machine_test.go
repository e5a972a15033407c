package nodecache

import (
	"testing"

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

// TestMachine runs the checks every machine owes (see enginetest.Battery).
func TestMachine(t *testing.T) {
	enginetest.Battery[State, Trigger, Observation]{
		Definition: Definition, Name: "nodecache",
		All: allObservations(), Representative: allObservations(),
	}.Run(t)
}

func FuzzTriggerSequences(f *testing.F) {
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{255, 1, 0x02, 1, 0x08, 1, 0x12})
	f.Add([]byte{4, 1, 0x01, 1, 0x21, 2, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.RunSequence(t, Definition, func(b byte) Observation {
			return observationFromBits(uint16(b))
		}, data)
	})
}
