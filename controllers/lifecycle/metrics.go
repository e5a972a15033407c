package lifecycle

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

var transitionsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "fsmserve_lifecycle_transitions_total",
	Help: "Lifecycle transitions published, by machine, source, destination and trigger.",
}, []string{"machine", "from", "to", "trigger"})

// refusedTriggersTotal counts observations that implied a trigger the
// stored state does not take. The machine stays put and the next
// observation decides again, but a count above zero means Classify and the
// definition disagree: the controller battery holds it at zero, and an
// operator can alert on it.
var refusedTriggersTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "fsmserve_lifecycle_refused_triggers_total",
	Help: "Triggers an observation implied that the state did not permit, by machine, state and trigger.",
}, []string{"machine", "state", "trigger"})

func init() {
	metrics.Registry.MustRegister(transitionsTotal, refusedTriggersTotal)
}
