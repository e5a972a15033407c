package bench

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// Targets on two cores, from the router's brief.
const (
	targetAddedP50   = 500 * time.Microsecond
	targetAddedP99   = 2 * time.Millisecond
	targetThroughput = 0.5
)

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }

func us(d time.Duration) string { return fmt.Sprintf("%.0f us", float64(d)/float64(time.Microsecond)) }

func verdict(ok bool) string {
	if ok {
		return "meets target"
	}
	return "MISSES target"
}

// AddedP50 and AddedP99 are what one router hop adds to a direct call.
func (r *Report) AddedP50() time.Duration { return r.OneHop.P50 - r.Direct.P50 }
func (r *Report) AddedP99() time.Duration { return r.OneHop.P99 - r.Direct.P99 }

// ThroughputRatio is the one-hop max throughput over the direct one.
func (r *Report) ThroughputRatio() float64 {
	if r.MaxDirect.Throughput == 0 {
		return 0
	}
	return r.MaxOneHop.Throughput / r.MaxDirect.Throughput
}

func (r *Report) print(out io.Writer, cfg Config) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "fixed rate\tsent\terrors\tachieved req/s\tp50\tp99\tp99 range over rounds\tCPU/req\t")
	rows := []struct {
		name string
		f    Figures
	}{{"direct", r.Direct}, {"router, one hop", r.OneHop}, {fmt.Sprintf("router, %d-step Sequence", cfg.Sequences), r.Sequence}}
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%s\t%s\t%s - %s\t%s\t\n", row.name, row.f.Sent, row.f.Errors, row.f.Throughput,
			ms(row.f.P50), ms(row.f.P99), ms(row.f.P99Min), ms(row.f.P99Max), us(row.f.CPUPerRequest()))
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "max throughput (closed loop)\tsent\terrors\treq/s\t\t\t\tCPU/req\t")
	fmt.Fprintf(tw, "direct\t%d\t%d\t%.1f\t\t\t\t%s\t\n", r.MaxDirect.Sent, r.MaxDirect.Errors, r.MaxDirect.Throughput, us(r.MaxDirect.CPUPerRequest()))
	fmt.Fprintf(tw, "router, one hop\t%d\t%d\t%.1f\t\t\t\t%s\t\n", r.MaxOneHop.Sent, r.MaxOneHop.Errors, r.MaxOneHop.Throughput, us(r.MaxOneHop.CPUPerRequest()))
	_ = tw.Flush()
	for _, row := range []struct {
		name string
		f    Figures
	}{{"direct", r.Direct}, {"one hop", r.OneHop}, {"Sequence", r.Sequence}, {"max direct", r.MaxDirect}, {"max one hop", r.MaxOneHop}} {
		if row.f.FirstError != "" {
			fmt.Fprintf(out, "%s: first error: %s\n", row.name, row.f.FirstError)
		}
	}

	perStep := time.Duration(0)
	if cfg.Sequences > 1 {
		perStep = (r.Sequence.P50 - r.OneHop.P50) / time.Duration(cfg.Sequences-1)
	}
	fmt.Fprintf(out, "\nadded per hop at %d req/s: p50 %s (%s < %s), p99 %s (%s < %s)\n",
		cfg.Rate, ms(r.AddedP50()), verdict(r.AddedP50() < targetAddedP50), ms(targetAddedP50),
		ms(r.AddedP99()), verdict(r.AddedP99() < targetAddedP99), ms(targetAddedP99))
	fmt.Fprintf(out, "each further Sequence step adds about %s at p50 (one more backend call plus the router's work)\n", ms(perStep))
	fmt.Fprintf(out, "max throughput one hop / direct: %.2f (%s >= %.2f)\n",
		r.ThroughputRatio(), verdict(r.ThroughputRatio() >= targetThroughput), targetThroughput)
	fmt.Fprintf(out, "CPU per request at %d req/s: the hop adds %s (direct %s, one hop %s); a CPU-bound ratio of %.2f\n",
		cfg.Rate, us(r.OneHop.CPUPerRequest()-r.Direct.CPUPerRequest()), us(r.Direct.CPUPerRequest()), us(r.OneHop.CPUPerRequest()),
		ratio(r.Direct.CPUPerRequest(), r.OneHop.CPUPerRequest()))
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
