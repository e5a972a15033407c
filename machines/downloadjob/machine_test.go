package downloadjob

import (
	"testing"

	"github.com/fsmserve/fsmserve/machines/engine/enginetest"
)

// observationFromBits builds one observation per combination of twelve facts,
// so tests can sweep every combination.
func observationFromBits(bits uint16) Observation {
	bit := func(i uint) bool { return bits&(1<<i) != 0 }
	o := Observation{
		Model:  "llama",
		Wanted: !bit(0),
		Job: Job{
			Name: "llama-node-1-3f9a2c", Exists: bit(1), Running: bit(2),
			Succeeded: bit(3), Failed: bit(4), Attempt: 1,
		},
		Folder:         Folder{Path: "/mnt/models/models/0123456789abcdef", Verified: bit(6)},
		Verification:   Verification{Done: bit(7), OK: bit(8)},
		Attempt:        1,
		MaxAttempts:    3,
		BackoffElapsed: bit(10),
		RetryAllowed:   bit(11),
	}
	if bit(4) {
		o.Job.Reason, o.Job.Message = "BackoffLimitExceeded", "Job has reached the specified backoff limit"
	}
	if bit(5) {
		o.Problem = Problem{Reason: "NodeGroupUnknown", Message: "no node group"}
	}
	if o.Verification.Done && !o.Verification.OK {
		o.Verification.Reason, o.Verification.Message = ReasonFolderMissing, "folder missing"
	}
	if bit(9) {
		o.Attempt = 3
	}
	return o
}

func allObservations() []Observation {
	out := make([]Observation, 0, 1<<12)
	for bits := uint16(0); bits < 1<<12; bits++ {
		out = append(out, observationFromBits(bits))
	}
	return out
}

// representativeObservations is a spread of the sweep that covers both values
// of every fact the guards read, enough for the costlier live checks.
func representativeObservations() []Observation {
	var out []Observation
	for bits := uint16(0); bits < 1<<12; bits += 97 {
		out = append(out, observationFromBits(bits))
	}
	return append(out, observationFromBits(0), observationFromBits(1<<9))
}

// TestMachine runs the checks every machine owes (see enginetest.Battery).
func TestMachine(t *testing.T) {
	enginetest.Battery[State, Trigger, Observation]{
		Definition: Definition, Name: "downloadjob",
		All: allObservations(), Representative: representativeObservations(),
	}.Run(t)
}

func FuzzTriggerSequences(f *testing.F) {
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{255, 1, 0x02, 1, 0x06, 1, 0x10})
	f.Add([]byte{3, 1, 0x12, 1, 0x80, 2, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.RunSequence(t, Definition, func(b byte) Observation {
			return observationFromBits(uint16(b) | uint16(b&15)<<8)
		}, data)
	})
}
