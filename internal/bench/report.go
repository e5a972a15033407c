package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fsmserve/fsmserve/internal/apicount"
)

// Report is one run's figures.
type Report struct {
	N int `json:"n"`
	// FloorSeconds is how long N bare Deployment and Service pairs took to
	// be available; ReadySeconds how long N InferenceServices took to be
	// Ready, in the same cluster.
	FloorSeconds float64 `json:"floorSeconds"`
	ReadySeconds float64 `json:"readySeconds"`
	// CreateP50Ms and CreateP99Ms are the latencies of the creates, each
	// through fsmserve's defaulting and validating webhooks.
	CreateP50Ms float64 `json:"createP50Ms"`
	CreateP99Ms float64 `json:"createP99Ms"`
	// Writes and Reads are the manager's requests from the first create
	// until all were Ready and settled, by "VERB resource".
	Writes map[string]int `json:"writes"`
	Reads  map[string]int `json:"reads"`
	// RolloutSeconds and RolloutWrites are a spec change of every
	// InferenceService (a new model version) until all are Ready on it.
	RolloutSeconds float64 `json:"rolloutSeconds"`
	// FloorRolloutSeconds is the same change of the floor's bare
	// Deployments, until all rolled out.
	FloorRolloutSeconds float64        `json:"floorRolloutSeconds"`
	RolloutWrites       map[string]int `json:"rolloutWrites"`
	// Reconciles are the InferenceService controller's reconciles.
	Reconciles int `json:"reconciles"`
	// CPUSeconds is the process's CPU time over the same span.
	CPUSeconds float64 `json:"cpuSeconds"`
	// RSSMiB is the process's resident memory after the idle window;
	// AnonMiB the part of it that is the process's own (heap, stacks), the
	// rest being pages of the executable, shared and reclaimable; HeapMiB
	// the Go heap's live objects.
	RSSMiB  float64 `json:"rssMiB"`
	AnonMiB float64 `json:"anonMiB"`
	HeapMiB float64 `json:"heapMiB"`
	// IdleSeconds and Idle are the idle window and what the manager sent
	// in it, watches apart.
	IdleSeconds float64        `json:"idleSeconds"`
	Idle        map[string]int `json:"idle"`
	// CachedObjects counts the objects each of the manager's informers holds.
	CachedObjects map[string]int `json:"cachedObjects"`
	// Noise is the number of unrelated Secrets and pods created first.
	Noise int `json:"noise"`
	// Error is the phase that failed, if one did; the figures before it
	// are still filled in.
	Error string `json:"error,omitempty"`
}

// PerObject divides a count by N.
func (r Report) PerObject(n int) float64 { return float64(n) / float64(max(r.N, 1)) }

// Print writes the report for a person, or as JSON.
func (r Report) Print(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(w, "fsmserve bench controller: %d InferenceServices (sklearn sample)", r.N)
	if r.Noise > 0 {
		fmt.Fprintf(w, ", %d unrelated Secrets and pods in the cluster", r.Noise)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  all Ready          %6.1f s   floor (bare Deployment+Service) %6.1f s   ratio %.2fx\n",
		r.ReadySeconds, r.FloorSeconds, r.ReadySeconds/max(r.FloorSeconds, 0.001))
	fmt.Fprintf(w, "  create (admission) p50 %.0f ms   p99 %.0f ms   no admission error\n", r.CreateP50Ms, r.CreateP99Ms)
	fmt.Fprintf(w, "  writes / object    %6.2f      %s\n", r.PerObject(apicount.Total(r.Writes)), breakdown(r, r.Writes))
	fmt.Fprintf(w, "  reads / object     %6.2f      %s\n", r.PerObject(apicount.Total(r.Reads)), breakdown(r, r.Reads))
	fmt.Fprintf(w, "  spec change        %6.1f s   floor (bare Deployments) %6.1f s   ratio %.2fx\n",
		r.RolloutSeconds, r.FloorRolloutSeconds, r.RolloutSeconds/max(r.FloorRolloutSeconds, 0.001))
	fmt.Fprintf(w, "  writes / change    %6.2f      %s\n", r.PerObject(apicount.Total(r.RolloutWrites)), breakdown(r, r.RolloutWrites))
	fmt.Fprintf(w, "  reconciles / obj   %6.2f\n", r.PerObject(r.Reconciles))
	fmt.Fprintf(w, "  CPU                %6.1f s   RSS %.0f MiB: %.0f MiB its own, %.0f MiB live heap (the manager process alone; node agents not run)\n",
		r.CPUSeconds, r.RSSMiB, r.AnonMiB, r.HeapMiB)
	fmt.Fprintf(w, "  idle %2.0f s          %6d requests %s\n", r.IdleSeconds, apicount.Total(r.Idle), breakdown(Report{N: 1}, r.Idle))
	if r.Error != "" {
		fmt.Fprintf(w, "  stopped early: %s\n", r.Error)
	}
	if len(r.CachedObjects) > 0 {
		fmt.Fprintf(w, "  cached objects     %s\n", breakdown(Report{N: 1}, r.CachedObjects))
	}
	return nil
}

func breakdown(r Report, m map[string]int) string {
	var parts []string
	for _, k := range apicount.Keys(m) {
		parts = append(parts, fmt.Sprintf("%s %s", k, strconv.FormatFloat(r.PerObject(m[k]), 'f', -1, 64)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// CPUTime is this process's user and system CPU time.
func CPUTime() time.Duration {
	raw, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name (which is in parentheses and may hold
	// spaces); utime and stime are the 14th and 15th fields.
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(fields) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(fields[11], 10, 64)
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ is 100 on Linux
}

// RSSMiB is this process's resident set size.
func RSSMiB() float64 { return statusMiB("VmRSS:") }

// AnonMiB is the anonymous part of the resident set: the process's own
// memory, without the executable's pages.
func AnonMiB() float64 { return statusMiB("RssAnon:") }

// HeapMiB is the Go heap's live objects after the last collection.
func HeapMiB() float64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// statusMiB reads one kB field of /proc/self/status.
func statusMiB(field string) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// ManagerMeasure is what the manager process measured over one phase.
type ManagerMeasure struct {
	Counts     apicount.Counts `json:"counts"`
	Reconciles int             `json:"reconciles"`
	CPUSeconds float64         `json:"cpuSeconds"`
	// RSSMiB is the manager process's resident memory after a collection,
	// AnonMiB its own part of it, HeapMiB its live Go heap.
	RSSMiB        float64        `json:"rssMiB"`
	AnonMiB       float64        `json:"anonMiB"`
	HeapMiB       float64        `json:"heapMiB"`
	CachedObjects map[string]int `json:"cachedObjects"`
}
