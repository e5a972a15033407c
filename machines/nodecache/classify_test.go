package nodecache

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var (
	listed   = Observation{Model: "llama", SourceModelUri: "gs://models/llama", InSpec: true, Capacity: Capacity{Fits: true}}
	onDisk   = Folder{Path: "/mnt/models/models/k", Verified: true}
	gaveUp   = Download{Phase: GaveUp, Reason: "BackoffLimitExceeded", Message: "3 attempts failed"}
	tooLarge = Capacity{Fits: false, NodeGroup: "gpu", Limit: "10Gi", Need: "6Gi", Free: "4Gi", Holders: []string{"bert (6Gi)"}}
)

func with(mut func(*Observation)) Observation {
	o := listed
	mut(&o)
	return o
}

func TestClassify(t *testing.T) {
	cases := []struct {
		why   string
		state State
		obs   Observation
		want  Trigger
	}{
		{"a listed model that fits is downloaded", Absent, listed, DownloadRequested},
		{"a model that does not fit waits, it does not fail later", Absent, with(func(o *Observation) { o.Capacity = tooLarge }), CapacityExceeded},
		{"a folder already on disk is kept, not downloaded again", Absent, with(func(o *Observation) { o.Folder, o.Capacity = onDisk, tooLarge }), FolderFound},
		{"waiting stays while the model does not fit", WaitingForCapacity, with(func(o *Observation) { o.Capacity = tooLarge }), ""},
		{"freed space starts the download", WaitingForCapacity, listed, CapacityAvailable},
		{"downloading waits for the download", Downloading, with(func(o *Observation) { o.Download.Phase = Running }), ""},
		{"a finished download still needs the folder verified", Downloading, with(func(o *Observation) { o.Download.Phase = Succeeded }), ""},
		{"a verified download is cached", Downloading, with(func(o *Observation) { o.Download.Phase, o.Folder = Succeeded, onDisk }), DownloadSucceeded},
		{"a download that gives up fails the cache", Downloading, with(func(o *Observation) { o.Download = gaveUp }), DownloadFailed},
		{"a retried download resumes", Failed, with(func(o *Observation) { o.Download.Phase = Running }), DownloadRetried},
		{"failed stays while the download gives up", Failed, with(func(o *Observation) { o.Download = gaveUp }), ""},
		{"cached stays while the folder is there", Cached, with(func(o *Observation) { o.Folder = onDisk }), ""},
		{"a deleted folder is downloaded again", Cached, listed, FolderLost},
		{"a model removed from the spec is evicted", Cached, with(func(o *Observation) { o.InSpec, o.Folder = false, onDisk }), ModelRemoved},
		{"a waiting model removed from the spec is evicted too", WaitingForCapacity, with(func(o *Observation) { o.InSpec = false }), ModelRemoved},
		{"an absent model that left the spec is forgotten", Absent, with(func(o *Observation) { o.InSpec = false }), ""},
		{"eviction waits for the Job and folder to go", Evicting, with(func(o *Observation) { o.InSpec = false }), ""},
		{"eviction completes", Evicting, with(func(o *Observation) { o.InSpec, o.Evicted = false, true }), EvictionComplete},
		{"a model listed again stops its eviction", Evicting, with(func(o *Observation) { o.Evicted = true }), ModelRequested},
		{"recovery keeps a folder on disk", Recovering, with(func(o *Observation) { o.Folder = onDisk }), FolderFound},
		{"recovery without a folder starts over", Recovering, listed, Recovered},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, ok := Classify(c.state, c.obs)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.want != "", ok)
		})
	}
}

// TestEvictionEndsAbsentInOneReconcile: with the step reporting the Job and
// folder gone, one reconcile takes a removed model from Cached to Absent,
// where the agent forgets it.
func TestEvictionEndsAbsentInOneReconcile(t *testing.T) {
	m := Definition.New(string(Cached), func() time.Time { return time.Unix(0, 0) })
	evict := func(_ context.Context, s State, o Observation) Observation {
		if s == Evicting {
			o.Evicted, o.Folder.Verified = true, false
		}
		return o
	}
	_, err := m.Run(context.Background(), with(func(o *Observation) { o.InSpec, o.Folder = false, onDisk }), evict)
	assert.NoError(t, err)
	assert.Equal(t, Absent, m.State())
	assert.Len(t, m.Journal(), 2, "Cached -> Evicting -> Absent")
}

func TestExplainSaysWhatIsNeededAndWhoHoldsIt(t *testing.T) {
	reason, msg := Explain(WaitingForCapacity, with(func(o *Observation) { o.Capacity = tooLarge }))
	assert.Equal(t, ReasonInsufficientCapacity, reason)
	for _, want := range []string{"llama", "6Gi", "4Gi", "10Gi", "gpu", "bert (6Gi)"} {
		assert.Contains(t, msg, want)
	}
	reason, _ = Explain(Failed, with(func(o *Observation) { o.Download = gaveUp }))
	assert.Equal(t, "BackoffLimitExceeded", reason)
	_, msg = Explain(Downloading, with(func(o *Observation) { o.Download.SharedWith = "team-a/llama" }))
	assert.Contains(t, msg, "team-a/llama")
	for _, st := range Definition.States {
		if st.State == Active {
			continue
		}
		reason, msg := Explain(st.State, listed)
		assert.NotEmpty(t, reason, st.State)
		assert.Contains(t, msg, "llama", st.State)
	}
}
