package router

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

const metricsNamespace = "fsmserve_router"

// metrics are the router's own Prometheus series, served at /metrics.
type metrics struct {
	requests    *prometheus.CounterVec
	duration    prometheus.Histogram
	stepLatency *prometheus.HistogramVec
	overhead    prometheus.Histogram
	// inFlight counts the graph requests being handled. The drain reads it
	// too, and a GaugeFunc exports it, so a request updates one integer
	// instead of also updating a float gauge.
	inFlight atomic.Int64
	// byCode holds the counters of common codes, looked up without hashing
	// label values; it is read-only after newMetrics.
	byCode map[int]prometheus.Counter
}

var commonCodes = []int{200, 201, 202, 204, 400, 401, 403, 404, 408, 413, 422, 429, 499, 500, 502, 503, 504}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: metricsNamespace,
			Name:      "requests_total",
			Help:      "Graph requests handled, by response status code (499: the client went away).",
		}, []string{"code"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: metricsNamespace,
			Name:      "request_duration_seconds",
			Help:      "Time from receiving a graph request to finishing its response.",
			Buckets:   prometheus.ExponentialBuckets(0.0005, 2, 16),
		}),
		stepLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: metricsNamespace,
			Name:      "step_duration_seconds",
			Help:      "Time one graph step took, including nested nodes, by node and step.",
			Buckets:   prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"node", "step"}),
		overhead: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: metricsNamespace,
			Name:      "overhead_seconds",
			Help:      "Request duration minus the time at least one downstream call was outstanding: what the router itself adds.",
			Buckets:   prometheus.ExponentialBuckets(0.00002, 2, 16),
		}),
	}
	inFlight := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: metricsNamespace,
		Name:      "in_flight_requests",
		Help:      "Graph requests being handled now.",
	}, func() float64 { return float64(m.inFlight.Load()) })
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.stepLatency, m.overhead, inFlight} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	m.byCode = make(map[int]prometheus.Counter, len(commonCodes))
	for _, code := range commonCodes {
		m.byCode[code] = m.requests.WithLabelValues(strconv.Itoa(code))
	}
	return m, nil
}

// newRegistry returns a registry holding the Go runtime and process series;
// the router adds its own.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

func (m *metrics) observeRequest(code int, total, downstream time.Duration) {
	if c, ok := m.byCode[code]; ok {
		c.Inc()
	} else {
		m.requests.WithLabelValues(strconv.Itoa(code)).Inc()
	}
	m.duration.Observe(total.Seconds())
	overhead := total - downstream
	if overhead < 0 {
		overhead = 0
	}
	m.overhead.Observe(overhead.Seconds())
}

// busyClock measures, for one request, the wall time during which at least one
// downstream call was outstanding. Parallel Ensemble calls overlap, so their
// durations are merged rather than summed.
type busyClock struct {
	mu     sync.Mutex
	active int
	since  time.Time
	total  time.Duration
}

func (b *busyClock) begin(now time.Time) {
	b.mu.Lock()
	if b.active == 0 {
		b.since = now
	}
	b.active++
	b.mu.Unlock()
}

func (b *busyClock) end(now time.Time) {
	b.mu.Lock()
	b.active--
	if b.active == 0 {
		b.total += now.Sub(b.since)
	}
	b.mu.Unlock()
}

func (b *busyClock) elapsed(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active > 0 {
		return b.total + now.Sub(b.since)
	}
	return b.total
}
