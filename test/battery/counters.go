package battery

import (
	"net/http"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// WriteLog records every write (anything but GET) a manager sends to the
// API server: any method but GET, so reads, lists and watches are left out.
type WriteLog struct {
	mu     sync.Mutex
	writes []string
}

func (w *WriteLog) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		if req.Method != http.MethodGet {
			w.mu.Lock()
			w.writes = append(w.writes, req.Method+" "+req.URL.Path)
			w.mu.Unlock()
		}
		return next.RoundTrip(req)
	})
}

// Writes returns the writes recorded so far.
func (w *WriteLog) Writes() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.writes...)
}

// RequestLog records every request a process sends, watches apart: a
// watch is one long request an informer keeps open, not a poll.
type RequestLog struct {
	mu       sync.Mutex
	requests []string
	watches  int
}

// Wrap counts the requests sent through next.
func (l *RequestLog) Wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		l.mu.Lock()
		if req.URL.Query().Get("watch") == "true" {
			l.watches++
		} else {
			l.requests = append(l.requests, req.Method+" "+req.URL.Path)
		}
		l.mu.Unlock()
		return next.RoundTrip(req)
	})
}

// Reset forgets what was recorded.
func (l *RequestLog) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests, l.watches = nil, 0
}

// Requests returns the requests recorded, and the number of watches opened.
func (l *RequestLog) Requests() ([]string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.requests...), l.watches
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

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
	families, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if hasLabel(m, label, value) {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

func hasLabel(m *dto.Metric, name, value string) bool {
	for _, l := range m.GetLabel() {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}
