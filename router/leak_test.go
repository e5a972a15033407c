package router

import (
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// settledGoroutines closes idle connections (whose goroutines are pooled, not
// leaked) and returns the goroutine count once it stops falling.
func settledGoroutines(closeIdle func()) int {
	prev := runtime.NumGoroutine()
	for range 100 {
		closeIdle()
		time.Sleep(50 * time.Millisecond)
		n := runtime.NumGoroutine()
		if n >= prev {
			return n
		}
		prev = n
	}
	return prev
}

// goroutinesAtMost waits up to ten seconds for the goroutine count to fall to
// limit, closing idle connections meanwhile, and returns the last count.
func goroutinesAtMost(closeIdle func(), limit int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > limit && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		closeIdle()
		time.Sleep(50 * time.Millisecond)
	}
	return n
}

// KServe's Ensemble returns on a failed Hard step while the other goroutines
// block forever on unbuffered channels: two leaked goroutines per request.
// Here 10,000 such requests leave nothing behind: the third step, which would
// hang for seconds, is cancelled each time, and every goroutine finishes.
func TestEnsembleHardFailureLeaksNoGoroutines(t *testing.T) {
	failing := newBackend(t, fixed(http.StatusServiceUnavailable, `{"error":"unavailable"}`))
	ok := newBackend(t, fixed(http.StatusOK, `{"ok":true}`))
	var abandoned atomic.Int64
	hanging := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
			abandoned.Add(1)
		case <-time.After(5 * time.Second):
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": ensemble(
		stepSpec{Name: "gate", ServiceURL: failing.URL, Dependency: dependencyHard},
		stepSpec{Name: "fast", ServiceURL: ok.URL},
		stepSpec{Name: "slow", ServiceURL: hanging.URL},
	)}))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	closeIdle := func() {
		client.CloseIdleConnections()
		r.transport.CloseIdleConnections()
	}
	send := func() {
		resp, err := client.Post(r.url, "application/json", strings.NewReader(`{"instances":[1]}`))
		if err != nil {
			t.Error(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || string(body) != `{"error":"unavailable"}` {
			t.Errorf("got %d %s, want the Hard step's 503", resp.StatusCode, body)
		}
	}
	send() // warm up lazily started goroutines
	before := settledGoroutines(closeIdle)
	const requests = 10_000
	concurrently(t, requests, 16, send)
	after := goroutinesAtMost(closeIdle, before+5)
	if after > before+5 {
		buf := make([]byte, 1<<20)
		t.Fatalf("goroutines: %d before, %d after %d requests; stacks:\n%s", before, after, requests, buf[:runtime.Stack(buf, true)])
	}
	if abandoned.Load() == 0 {
		t.Fatal("no slow call was ever cancelled; the test did not exercise early return")
	}
	t.Logf("goroutines %d before, %d after; %d slow calls cancelled", before, after, abandoned.Load())
}

// concurrently calls send n times from the given number of workers.
func concurrently(t *testing.T, n, workers int, send func()) {
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) && !t.Failed() {
				send()
			}
		}()
	}
	wg.Wait()
}
