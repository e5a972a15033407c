package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Figures are what one load run measured.
type Figures struct {
	Sent       int
	Errors     int
	Elapsed    time.Duration
	Throughput float64 // successful requests per second
	P50, P99   time.Duration
	// P99Min and P99Max are the spread of the rounds' p99.
	P99Min, P99Max time.Duration
	// FirstError is the first failure seen, if any, for the report.
	FirstError string
	// CPU is the process CPU time (user+system) the run used, load
	// generator and backend included; unlike latency it hardly depends on
	// what else the machine is doing.
	CPU time.Duration
}

// CPUPerRequest is the process CPU time per request sent.
func (f Figures) CPUPerRequest() time.Duration {
	if f.Sent == 0 {
		return 0
	}
	return f.CPU / time.Duration(f.Sent)
}

// processCPU returns the CPU time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// newClient returns the load generator's client: pooled keep-alive
// connections, so the benchmark measures requests, not TCP handshakes.
func newClient(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		MaxIdleConns:        conns * 4,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}}
}

// post sends one request and reads the whole answer.
func post(ctx context.Context, client *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(requestBody))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// fixedRate sends requests on a fixed schedule (open loop: a slow answer does
// not delay the next request) and measures each from the moment it is sent.
func fixedRate(ctx context.Context, client *http.Client, url string, rate int, d time.Duration) Figures {
	n := int(float64(rate) * d.Seconds())
	interval := time.Second / time.Duration(rate)
	latencies := make([]time.Duration, n)
	failed := make([]error, n)
	var wg sync.WaitGroup
	cpu0, start := processCPU(), time.Now()
	for i := range n {
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		if ctx.Err() != nil {
			n = i
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			err := post(ctx, client, url)
			latencies[i] = time.Since(t0)
			failed[i] = err
		}()
	}
	wg.Wait()
	f := summarize(latencies[:n], failed[:n], time.Since(start))
	f.CPU = processCPU() - cpu0
	return f
}

// closedLoop runs workers that each send the next request as soon as the
// previous one is answered, for d: the most the setup can serve.
func closedLoop(ctx context.Context, client *http.Client, url string, workers int, d time.Duration) Figures {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var ok, errs atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	cpu0, start := processCPU(), time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if err := post(ctx, client, url); err != nil {
					if ctx.Err() == nil {
						errs.Add(1)
						firstErr.CompareAndSwap(nil, err.Error())
					}
					continue
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sent := int(ok.Load() + errs.Load())
	f := Figures{Sent: sent, Errors: int(errs.Load()), Elapsed: elapsed, Throughput: float64(ok.Load()) / elapsed.Seconds(), CPU: processCPU() - cpu0}
	if msg, ok := firstErr.Load().(string); ok {
		f.FirstError = msg
	}
	return f
}

func summarize(latencies []time.Duration, failed []error, elapsed time.Duration) Figures {
	f := Figures{Sent: len(latencies), Elapsed: elapsed}
	good := make([]time.Duration, 0, len(latencies))
	for i, l := range latencies {
		if failed[i] != nil {
			if f.Errors == 0 {
				f.FirstError = failed[i].Error()
			}
			f.Errors++
			continue
		}
		good = append(good, l)
	}
	slices.Sort(good)
	f.P50, f.P99 = percentile(good, 0.50), percentile(good, 0.99)
	f.P99Min, f.P99Max = f.P99, f.P99
	f.Throughput = float64(len(good)) / elapsed.Seconds()
	return f
}

// percentile uses the nearest-rank method.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(rank, len(sorted)-1))]
}

// combine merges rounds: counts add up, throughput is over the total time,
// percentiles are the median of the rounds' percentiles.
func combine(rounds []Figures) Figures {
	var f Figures
	p50s := make([]time.Duration, 0, len(rounds))
	p99s := make([]time.Duration, 0, len(rounds))
	ok := 0.0
	for _, r := range rounds {
		f.Sent += r.Sent
		f.Errors += r.Errors
		f.Elapsed += r.Elapsed
		f.CPU += r.CPU
		ok += r.Throughput * r.Elapsed.Seconds()
		if f.FirstError == "" {
			f.FirstError = r.FirstError
		}
		p50s = append(p50s, r.P50)
		p99s = append(p99s, r.P99)
	}
	if f.Elapsed > 0 {
		f.Throughput = ok / f.Elapsed.Seconds()
	}
	slices.Sort(p50s)
	slices.Sort(p99s)
	if len(rounds) > 0 {
		f.P50, f.P99 = p50s[len(p50s)/2], p99s[len(p99s)/2]
		f.P99Min, f.P99Max = p99s[0], p99s[len(p99s)-1]
	}
	return f
}
