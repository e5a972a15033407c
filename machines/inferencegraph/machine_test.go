package inferencegraph

import (
	"testing"

	"github.com/fsmserve/fsmserve/machines/engine/enginetest"
)

// observationFromBits builds one observation per combination of ten facts, so
// tests can sweep every combination.
func observationFromBits(bits uint16) Observation {
	bit := func(i uint) bool { return bits&(1<<i) != 0 }
	o := Observation{
		Deleting:       bit(0),
		StopRequested:  bit(1),
		SpecChanged:    bit(2),
		ModeSupported:  !bit(3),
		Mode:           "Standard",
		DeploymentName: "dog-breed",
		Router: Workload{
			Exists: bit(6) || bit(7) || bit(8), Serving: bit(6), UpToDate: bit(7), Failed: bit(8),
		},
	}
	if !o.ModeSupported {
		o.Mode = "Knative"
	}
	switch (bits >> 4) & 3 {
	case 1:
		o.Problem = Problem{Kind: ServiceProblem, Reason: ReasonServiceNotFound, Message: "waiting for InferenceService cat-dog"}
	case 2:
		o.Problem = Problem{Kind: SpecProblem, Reason: "InvalidGraphSpec", Message: "nodes.root is missing"}
	case 3:
		o.Problem = Problem{Kind: ConfigProblem, Reason: "InvalidRouterConfig", Message: "bad image pull policy"}
	}
	if bit(9) {
		o.Router.Reason, o.Router.Message = "ProgressDeadlineExceeded", "deadline exceeded"
	}
	if bit(10) {
		o.Problem = Problem{Kind: OwnershipProblem, Reason: "ChildNotOwned", Message: "Deployment dog-breed exists and is not controlled by InferenceGraph dog-breed"}
	}
	if bit(11) {
		o.Problem = Problem{Kind: RefusalProblem, Reason: "RefusedByAPIServer", Message: "exceeded quota: q"}
	}
	o.RouterApplied = bit(12)
	return o
}

func allObservations() []Observation {
	out := make([]Observation, 0, 1<<13)
	for bits := uint16(0); bits < 1<<13; bits++ {
		out = append(out, observationFromBits(bits))
	}
	return out
}

// representativeObservations is a spread of the sweep that covers both values
// of every fact the guards read, enough for the costlier live checks.
func representativeObservations() []Observation {
	var out []Observation
	for bits := uint16(0); bits < 1<<13; bits += 127 {
		out = append(out, observationFromBits(bits))
	}
	return append(out, observationFromBits(1<<6), observationFromBits(0))
}

// TestMachine runs the checks every machine owes (see enginetest.Battery).
func TestMachine(t *testing.T) {
	enginetest.Battery[State, Trigger, Observation]{
		Definition: Definition, Name: "inferencegraph",
		All: allObservations(), Representative: representativeObservations(),
	}.Run(t)
}

func FuzzTriggerSequences(f *testing.F) {
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{255, 1, 0x40, 1, 0xc0, 4, 0x80})
	f.Add([]byte{9, 1, 0x10, 1, 0x00, 1, 0xc0})
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.RunSequence(t, Definition, func(b byte) Observation {
			return observationFromBits(uint16(b) | uint16(b&3)<<8)
		}, data)
	})
}
