// Package bench measures what the InferenceGraph router adds to a request, in
// one process on loopback: a bgtest-shaped backend called directly, through
// the router (one hop) and through a three-step Sequence.
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"time"

	"github.com/fsmserve/fsmserve/router"
)

// Config is one benchmark run.
type Config struct {
	Rate      int           // requests per second of the fixed-rate runs
	Duration  time.Duration // length of each fixed-rate run
	Workers   int           // concurrent workers of the max-throughput runs
	MaxRun    time.Duration // length of each max-throughput run
	Warmup    time.Duration // unrecorded load before each target
	Sequences int           // steps of the Sequence graph
	// Rounds splits every run into this many interleaved rounds (direct,
	// one hop, Sequence, direct, ...), so a burst of load from elsewhere on
	// the machine hits every target alike; percentiles are the median of the
	// rounds' percentiles.
	Rounds int
	// StandardTransport runs the router without its fast path for
	// plain-HTTP/1.1 calls (router --standard-transport), for comparison.
	StandardTransport bool
}

// Report holds every figure Run printed.
type Report struct {
	Direct, OneHop, Sequence Figures
	MaxDirect, MaxOneHop     Figures
}

// Run starts the backend and two routers, measures them and prints a table.
func Run(ctx context.Context, cfg Config, out io.Writer) (*Report, error) {
	if cfg.Rate <= 0 || cfg.Duration <= 0 || cfg.Workers <= 0 || cfg.MaxRun <= 0 || cfg.Sequences <= 0 || cfg.Rounds <= 0 {
		return nil, errors.New("rate, duration, workers, max duration, steps and rounds must be positive")
	}
	backendURL, stopBackend, err := listenLoopback(bgtestHandler("single-1"))
	if err != nil {
		return nil, err
	}
	defer stopBackend()
	oneHopURL, stopOne, err := startRouter(ctx, sequenceGraph(backendURL, 1), cfg.StandardTransport)
	if err != nil {
		return nil, err
	}
	defer stopOne()
	seqURL, stopSeq, err := startRouter(ctx, sequenceGraph(backendURL, cfg.Sequences), cfg.StandardTransport)
	if err != nil {
		return nil, err
	}
	defer stopSeq()

	client := newClient(1024)
	fmt.Fprintf(out, "GOMAXPROCS=%d NumCPU=%d; fixed rate %d req/s for %v; max throughput with %d workers for %v; %d interleaved rounds\n\n",
		runtime.GOMAXPROCS(0), runtime.NumCPU(), cfg.Rate, cfg.Duration, cfg.Workers, cfg.MaxRun, cfg.Rounds)
	for _, url := range []string{backendURL, oneHopURL, seqURL} {
		warm(ctx, client, url, cfg)
	}
	r := &Report{}
	fixed := interleave(cfg.Rounds, []string{backendURL, oneHopURL, seqURL}, func(url string) Figures {
		return fixedRate(ctx, client, url, cfg.Rate, cfg.Duration/time.Duration(cfg.Rounds))
	})
	r.Direct, r.OneHop, r.Sequence = fixed[0], fixed[1], fixed[2]
	maxed := interleave(cfg.Rounds, []string{backendURL, oneHopURL}, func(url string) Figures {
		return closedLoop(ctx, client, url, cfg.Workers, cfg.MaxRun/time.Duration(cfg.Rounds))
	})
	r.MaxDirect, r.MaxOneHop = maxed[0], maxed[1]
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.print(out, cfg)
	return r, nil
}

// interleave runs measure on every target, round after round, and combines
// each target's rounds.
func interleave(rounds int, targets []string, measure func(url string) Figures) []Figures {
	runs := make([][]Figures, len(targets))
	for range rounds {
		for i, url := range targets {
			runs[i] = append(runs[i], measure(url))
		}
	}
	out := make([]Figures, len(targets))
	for i := range targets {
		out[i] = combine(runs[i])
	}
	return out
}

// warm fills connection pools and lets the runtime settle before measuring.
func warm(ctx context.Context, client *http.Client, url string, cfg Config) {
	if cfg.Warmup > 0 {
		closedLoop(ctx, client, url, cfg.Workers, cfg.Warmup)
	}
}

// sequenceGraph is a Sequence of n steps to the backend, each step fed with
// the previous response.
func sequenceGraph(backendURL string, n int) string {
	steps := make([]map[string]any, n)
	for i := range steps {
		steps[i] = map[string]any{"name": fmt.Sprintf("step-%d", i+1), "serviceUrl": backendURL + "/v1/models/single-1:predict", "data": "$response"}
	}
	spec := map[string]any{"nodes": map[string]any{"root": map[string]any{"routerType": "Sequence", "steps": steps}}}
	data, _ := json.Marshal(spec) // maps of strings always marshal
	return string(data)
}

func startRouter(ctx context.Context, graph string, standardTransport bool) (string, func(), error) {
	s, err := router.NewServer(router.Options{
		GraphJSON:         graph,
		StandardTransport: standardTransport,
		Logger:            slog.New(slog.NewTextHandler(io.Discard, nil)),
		DrainPeriod:       0,
	})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	go func() { _ = s.Serve(ln) }()
	stop := func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = s.Shutdown(sctx)
	}
	return "http://" + ln.Addr().String(), stop, nil
}
