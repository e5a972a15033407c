package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	if got := Percentile(ds, 50); got != 5 {
		t.Errorf("p50 = %d", got)
	}
	if got := Percentile(ds, 99); got != 10 {
		t.Errorf("p99 = %d", got)
	}
	if Percentile(nil, 99) != 0 {
		t.Error("no samples")
	}
}

func TestReportPrintsPerObjectFigures(t *testing.T) {
	r := Report{N: 4, FloorSeconds: 2, ReadySeconds: 3, Writes: map[string]int{"POST deployments": 4, "PUT inferenceservices/status": 10},
		Reads: map[string]int{"GET serviceaccounts": 4}, Idle: map[string]int{}}
	var b bytes.Buffer
	if err := r.Print(&b, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ratio 1.50x", "writes / object      3.50", "PUT inferenceservices/status 2.5", "POST deployments 1", "reads / object       1.00"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
