package localmodelcache

import (
	"testing"

	"github.com/fsmserve/fsmserve/machines/engine/enginetest"
)

// observationFromBits builds one observation per combination of twelve facts,
// so tests can sweep every combination.
func observationFromBits(bits uint16) Observation {
	bit := func(i uint) bool { return bits&(1<<i) != 0 }
	o := Observation{Deleting: bit(0), SpecChanged: bit(1), JobNamespace: "kserve-localmodel-jobs",
		Nodes: Nodes{Groups: []string{"gpu"}}}
	switch (bits >> 2) & 3 {
	case 1:
		o.Problem = Problem{Kind: NodeGroupProblem, Reason: ReasonNodeGroupNotFound, Message: "node group gpu not found"}
	case 2:
		o.Problem = Problem{Kind: ConfigProblem, Reason: "InvalidLocalModelConfig", Message: "bad jobNamespace"}
	}
	if bit(4) {
		o.Users = []string{"ns/iris"}
	}
	n := &o.Nodes
	if bit(5) {
		n.Outdated = []string{"node-o"}
	}
	if bit(6) {
		n.NotReady = []string{"node-nr"}
	}
	if bit(7) {
		n.Downloaded = append(n.Downloaded, "node-a")
	}
	if bit(8) {
		n.Downloading = []string{"node-b"}
	}
	if bit(9) {
		n.Pending = []string{"node-c"}
	}
	if bit(10) {
		n.Failed = []NodeFailure{{Node: "node-d", Reason: "DownloadFailed", Message: "403"}}
	}
	if bit(11) {
		n.Downloaded = append(n.Downloaded, "node-e")
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
	return append(out, observationFromBits(1<<4), observationFromBits(0))
}

// TestMachine runs the checks every machine owes (see enginetest.Battery).
func TestMachine(t *testing.T) {
	enginetest.Battery[State, Trigger, Observation]{
		Definition: Definition, Name: "localmodelcache",
		All: allObservations(), Representative: representativeObservations(),
	}.Run(t)
}

func FuzzTriggerSequences(f *testing.F) {
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{255, 1, 0x80, 1, 0x40, 4, 0x81})
	f.Add([]byte{8, 1, 0x01, 1, 0x10, 1, 0x11})
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.RunSequence(t, Definition, func(b byte) Observation {
			return observationFromBits(uint16(b) | uint16(b&0x0f)<<8)
		}, data)
	})
}
