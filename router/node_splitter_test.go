package router

import (
	"math"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
)

// seeded makes the splitter's draws reproducible.
func seeded(r *testRouter, seed uint64) {
	var mu sync.Mutex
	src := rand.New(rand.NewPCG(seed, seed))
	r.router.intn = func(n int) int {
		mu.Lock()
		defer mu.Unlock()
		return src.IntN(n)
	}
}

// fixedPoint makes every draw return p.
func fixedPoint(r *testRouter, p int) { r.router.intn = func(int) int { return p } }

func TestSplitterPicksByCumulativeWeight(t *testing.T) {
	cases := []struct {
		name       string
		weights    []int64
		point      int
		wantStatus int
		wantBody   string
	}{
		{"first bucket", []int64{20, 80}, 0, 200, `{"to":0}`},
		{"first bucket upper edge", []int64{20, 80}, 19, 200, `{"to":0}`},
		{"second bucket lower edge", []int64{20, 80}, 20, 201, `{"to":1}`},
		{"second bucket upper edge", []int64{20, 80}, 99, 201, `{"to":1}`},
		{"zero weight is never picked", []int64{0, 100}, 0, 201, `{"to":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, urls := startStubs(t, []stub{{200, `{"to":0}`}, {201, `{"to":1}`}})
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": splitter(
				stepSpec{ServiceURL: urls[0], Weight: weight(tc.weights[0])},
				stepSpec{ServiceURL: urls[1], Weight: weight(tc.weights[1])},
			)}))
			fixedPoint(r, tc.point)
			got := post(t, r.url, `{}`)
			if got.status != tc.wantStatus || got.body != tc.wantBody {
				t.Fatalf("got %d %s, want %d %s", got.status, got.body, tc.wantStatus, tc.wantBody)
			}
		})
	}
}

func TestSplitterReturnsTheChosenStepUnchanged(t *testing.T) {
	_, urls := startStubs(t, []stub{{503, `busy, try later`}})
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": splitter(
		stepSpec{ServiceURL: urls[0], Weight: weight(100), Dependency: dependencyHard},
	)}))
	got := post(t, r.url, `{}`)
	if got.status != 503 || got.body != `busy, try later` {
		t.Fatalf("got %d %q", got.status, got.body)
	}
}

func TestSplitterNoRouteSelected(t *testing.T) {
	_, urls := startStubs(t, []stub{{200, `{}`}})
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": splitter(
		stepSpec{ServiceURL: urls[0], Weight: weight(30)},
	)}))
	fixedPoint(r, 30)
	wantError(t, post(t, r.url, `{}`), http.StatusInternalServerError, "no route was selected by the splitter")
}

// The split follows the weights: with a seeded source, 2,000 requests over a
// 20/80 split land within four standard deviations of 400/1,600.
func TestSplitterDistribution(t *testing.T) {
	a, b := newBGTest(t, "single-1"), newBGTest(t, "single-2")
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": splitter(
		stepSpec{ServiceURL: a.URL, Weight: weight(20)},
		stepSpec{ServiceURL: b.URL, Weight: weight(80)},
	)}))
	seeded(r, 42)
	const n = 2000
	counts := map[string]int{}
	for range n {
		got := post(t, r.url, `{"instances":[]}`)
		var from struct{ From string }
		mustUnmarshal(t, got.body, &from)
		counts[from.From]++
	}
	expected := 0.2 * n
	sd := math.Sqrt(n * 0.2 * 0.8)
	if diff := math.Abs(float64(counts["single-1"]) - expected); diff > 4*sd {
		t.Fatalf("single-1 got %d of %d, want about %.0f (±%.0f)", counts["single-1"], n, expected, 4*sd)
	}
	if counts["single-1"]+counts["single-2"] != n {
		t.Fatalf("counts %v do not add up to %d", counts, n)
	}
}
