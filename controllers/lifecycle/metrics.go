package lifecycle

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

var transitionsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "fsmserve_lifecycle_transitions_total",
	Help: "Lifecycle transitions published, by machine, source, destination and trigger.",
}, []string{"machine", "from", "to", "trigger"})

func init() {
	metrics.Registry.MustRegister(transitionsTotal)
}
