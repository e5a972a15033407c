package router

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scrape returns the /metrics exposition as series -> value.
func scrape(t testing.TB, r *testRouter) map[string]float64 {
	t.Helper()
	resp, err := http.Get(r.url + metricsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics answered %d", resp.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad metrics line %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

func metricValue(t testing.TB, r *testRouter, series string) float64 {
	t.Helper()
	return scrape(t, r)[series]
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestMetricsExposed(t *testing.T) {
	ok := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		_, _ = w.Write([]byte(`{}`))
	}))
	r := startRouter(t, graphOf(t, map[string]nodeSpec{
		"root":  sequence(stepSpec{Name: "first", ServiceURL: ok.URL}, stepSpec{Name: "sub", NodeName: "inner"}),
		"inner": switchOf(stepSpec{Name: "pick", ServiceURL: ok.URL, Condition: "go"}),
	}))
	post(t, r.url, `{"go":1}`)
	post(t, r.url, `{"go":1}`)
	post(t, r.url, `{"stop":1}`)
	m := scrape(t, r)
	want := map[string]float64{
		`fsmserve_router_requests_total{code="200"}`:                            2,
		`fsmserve_router_requests_total{code="404"}`:                            1,
		`fsmserve_router_request_duration_seconds_count`:                        3,
		`fsmserve_router_overhead_seconds_count`:                                3,
		`fsmserve_router_step_duration_seconds_count{node="root",step="first"}`: 3,
		`fsmserve_router_step_duration_seconds_count{node="root",step="sub"}`:   3,
		`fsmserve_router_step_duration_seconds_count{node="inner",step="pick"}`: 2,
		`fsmserve_router_in_flight_requests`:                                    0,
	}
	for series, v := range want {
		if m[series] != v {
			t.Errorf("%s = %v, want %v", series, m[series], v)
		}
	}
	// Two backend calls of 20ms each: the step histogram sees them, the
	// overhead (duration minus downstream time) does not.
	if sum := m[`fsmserve_router_step_duration_seconds_sum{node="root",step="first"}`]; sum < 0.06 {
		t.Errorf("step duration sum %v, want at least 3 x 20ms", sum)
	}
	total, overhead := m[`fsmserve_router_request_duration_seconds_sum`], m[`fsmserve_router_overhead_seconds_sum`]
	if overhead >= total-0.09 {
		t.Errorf("overhead %v is not the duration %v minus ~100ms of downstream time", overhead, total)
	}
	if _, ok := m[`go_goroutines`]; !ok {
		t.Error("Go runtime metrics are missing")
	}
}

func TestBusyClockMergesOverlappingCalls(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	cases := []struct {
		name   string
		events []int // +ms begins a call, -ms ends one
		now    int
		want   time.Duration
	}{
		{"one call", []int{10, -30}, 50, 20 * time.Millisecond},
		{"sequential calls add up", []int{0, -10, 20, -25}, 40, 15 * time.Millisecond},
		{"parallel calls are merged", []int{0, 5, -20, -40}, 60, 40 * time.Millisecond},
		{"a call still open counts until now", []int{10}, 25, 15 * time.Millisecond},
		{"no calls", nil, 10, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b busyClock
			for _, e := range tc.events {
				if e >= 0 {
					b.begin(at(e))
				} else {
					b.end(at(-e))
				}
			}
			if got := b.elapsed(at(tc.now)); got != tc.want {
				t.Fatalf("busy %v, want %v", got, tc.want)
			}
		})
	}
}
