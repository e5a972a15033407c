package battery

import (
	"testing"

	"github.com/fsmserve/fsmserve/internal/bench"
)

// reconciles is controller-runtime's count of reconciles of a controller,
// over every manager this process has run.
func reconciles(t *testing.T, controller string) float64 {
	return counter(t, "controller_runtime_reconcile_total", "controller", controller)
}

// refusedTriggers is fsmserve's count of refused triggers of a machine.
func refusedTriggers(t *testing.T, machine string) float64 {
	return counter(t, "fsmserve_lifecycle_refused_triggers_total", "machine", machine)
}

func counter(t *testing.T, name, label, value string) float64 {
	t.Helper()
	n, err := bench.Counter(name, label, value)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
