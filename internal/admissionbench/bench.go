// Package admissionbench measures admission latency through a real API
// server: dry-run creates sent at a steady rate, timed from the client, for
// objects that pass fsmserve's webhooks and, as the baseline in the same run,
// for an object that passes none.
package admissionbench

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Target is one kind of request to time.
type Target struct {
	Name string
	// New returns a fresh object to dry-run create (unique name per call).
	New func(i int) client.Object
}

// Figures are one target's results.
type Figures struct {
	Name          string
	Sent, Errors  int
	P50, P99, Max time.Duration
	FirstError    string
}

// Run sends rate requests per second to each target for d (after a warm-up of
// a second), one target after the other, and returns their latencies.
func Run(ctx context.Context, c client.Client, targets []Target, rate int, d time.Duration) []Figures {
	out := make([]Figures, 0, len(targets))
	for _, t := range targets {
		steady(ctx, c, t, rate, time.Second, 0) // warm-up: connections, caches
		out = append(out, steady(ctx, c, t, rate, d, 1<<20))
	}
	return out
}

// steady fires one request every 1/rate seconds, each on its own goroutine
// (an open-loop load, so a slow answer does not slow the sender down).
func steady(ctx context.Context, c client.Client, t Target, rate int, d time.Duration, offset int) Figures {
	var mu sync.Mutex
	var lat []time.Duration
	f := Figures{Name: t.Name}
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	deadline := time.Now().Add(d)
	for i := 0; time.Now().Before(deadline); i++ {
		<-tick.C
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			start := time.Now()
			err := c.Create(ctx, t.New(offset+i), client.DryRunAll)
			took := time.Since(start)
			mu.Lock()
			defer mu.Unlock()
			f.Sent++
			if err != nil {
				f.Errors++
				if f.FirstError == "" {
					f.FirstError = err.Error()
				}
				return
			}
			lat = append(lat, took)
		}(i)
	}
	wg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	f.P50, f.P99, f.Max = quantile(lat, 0.50), quantile(lat, 0.99), quantile(lat, 1)
	return f
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}

// Print writes the figures as a table, with what the webhooks add over the
// baseline named base.
func Print(w io.Writer, figs []Figures, base string, rate int, d time.Duration) {
	fmt.Fprintf(w, "admission latency, dry-run creates at %d req/s for %s each, client-observed (API server round trip)\n", rate, d)
	fmt.Fprintf(w, "%-34s %6s %6s %9s %9s %9s\n", "target", "sent", "errors", "p50", "p99", "max")
	var baseline *Figures
	for i := range figs {
		if figs[i].Name == base {
			baseline = &figs[i]
		}
	}
	for _, f := range figs {
		fmt.Fprintf(w, "%-34s %6d %6d %9s %9s %9s\n", f.Name, f.Sent, f.Errors, ms(f.P50), ms(f.P99), ms(f.Max))
		if f.FirstError != "" {
			fmt.Fprintf(w, "  first error: %s\n", f.FirstError)
		}
	}
	if baseline == nil {
		return
	}
	for _, f := range figs {
		if f.Name != base {
			fmt.Fprintf(w, "added by the webhooks for %s: p50 %s, p99 %s (p99 target: under 20 ms)\n", f.Name, ms(f.P50-baseline.P50), ms(f.P99-baseline.P99))
		}
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }
