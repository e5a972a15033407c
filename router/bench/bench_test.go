package bench

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// A short run measures every row and prints the table.
func TestRunReportsEveryFigure(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Rate: 200, Duration: 300 * time.Millisecond, Workers: 4, MaxRun: 200 * time.Millisecond, Warmup: 50 * time.Millisecond, Sequences: 3, Rounds: 2}
	r, err := Run(context.Background(), cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]Figures{"direct": r.Direct, "one hop": r.OneHop, "sequence": r.Sequence} {
		if f.CPUPerRequest() <= 0 {
			t.Errorf("%s: no CPU time measured", name)
		}
		if f.Sent != 60 || f.P99Min > f.P99 || f.P99Max < f.P99 || f.Errors != 0 || f.P50 <= 0 || f.P99 < f.P50 {
			t.Errorf("%s: %+v", name, f)
		}
	}
	if r.MaxDirect.Throughput <= 0 || r.MaxOneHop.Throughput <= 0 || r.MaxDirect.Errors+r.MaxOneHop.Errors != 0 {
		t.Errorf("max throughput %+v %+v", r.MaxDirect, r.MaxOneHop)
	}
	for _, want := range []string{"router, one hop", "router, 3-step Sequence", "added per hop", "max throughput one hop / direct"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	if _, err := Run(context.Background(), Config{}, &bytes.Buffer{}); err == nil {
		t.Fatal("a zero config must be refused")
	}
}

func TestPercentile(t *testing.T) {
	sorted := make([]time.Duration, 100)
	for i := range sorted {
		sorted[i] = time.Duration(i + 1)
	}
	cases := []struct {
		p    float64
		want time.Duration
	}{{0.5, 50}, {0.99, 99}, {1, 100}, {0, 1}}
	for _, tc := range cases {
		if got := percentile(sorted, tc.p); got != tc.want {
			t.Errorf("p%v = %v, want %v", tc.p*100, got, tc.want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("empty input")
	}
}

func TestCombineTakesMedians(t *testing.T) {
	rounds := []Figures{
		{Sent: 10, Elapsed: time.Second, Throughput: 10, P50: 3, P99: 30},
		{Sent: 10, Errors: 1, Elapsed: time.Second, Throughput: 9, P50: 1, P99: 90},
		{Sent: 10, Elapsed: 2 * time.Second, Throughput: 5, P50: 2, P99: 10},
	}
	rounds[0].CPU, rounds[2].CPU = time.Second, 2*time.Second
	got := combine(rounds)
	want := Figures{Sent: 30, Errors: 1, Elapsed: 4 * time.Second, Throughput: 29.0 / 4, P50: 2, P99: 30, P99Min: 10, P99Max: 90, CPU: 3 * time.Second}
	if got != want {
		t.Fatalf("combine = %+v, want %+v", got, want)
	}
}
