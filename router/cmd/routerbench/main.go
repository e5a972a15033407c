// Command routerbench measures the latency and throughput the InferenceGraph
// router adds, in one process on loopback. See router/README.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/fsmserve/fsmserve/router/bench"
)

func main() {
	var cfg bench.Config
	flag.IntVar(&cfg.Rate, "rate", 1000, "requests per second of the fixed-rate runs")
	flag.DurationVar(&cfg.Duration, "duration", 10*time.Second, "length of each fixed-rate run")
	flag.IntVar(&cfg.Workers, "workers", 16, "concurrent workers of the max-throughput runs")
	flag.DurationVar(&cfg.MaxRun, "max-duration", 10*time.Second, "length of each max-throughput run")
	flag.DurationVar(&cfg.Warmup, "warmup", time.Second, "unrecorded closed-loop load before each measured run")
	flag.IntVar(&cfg.Sequences, "steps", 3, "steps of the Sequence graph")
	flag.IntVar(&cfg.Rounds, "rounds", 5, "interleaved rounds each run is split into; percentiles are their median")
	flag.BoolVar(&cfg.StandardTransport, "standard-transport", false, "run the router without its fast path for plain-HTTP/1.1 calls, for comparison")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := bench.Run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "routerbench:", err)
		os.Exit(1)
	}
}
