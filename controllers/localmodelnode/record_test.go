package localmodelnode

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/nodecache"
)

func TestRetryPolicyDoublesUpToItsCap(t *testing.T) {
	p := RetryPolicy{MaxAttempts: 9, Backoff: 10 * time.Second, MaxBackoff: time.Minute}
	var got []time.Duration
	for attempt := 1; attempt <= 5; attempt++ {
		got = append(got, p.After(attempt))
	}
	assert.Equal(t, []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, time.Minute, time.Minute}, got)
}

func TestRecordSurvivesStatusAndEmptiesAway(t *testing.T) {
	st := &v1alpha1.LocalModelNodeStatus{}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := record{StorageKey: "0123456789abcdef", Attempt: 2}
	r.failed(now, downloadjob.Problem{Reason: "BackoffLimitExceeded", Message: "m"}, "fp", false)
	writeRecord(st, "team/bert", r)
	back := readRecord(st, "team/bert")
	assert.Equal(t, 2, back.Attempt)
	assert.Equal(t, "BackoffLimitExceeded", back.lastFailure().Reason)
	assert.True(t, now.Add(20*time.Second).Equal(back.retryAt(DefaultRetryPolicy())), "second failure: 20s")
	back.newRound()
	assert.Zero(t, back.Attempt)
	assert.True(t, back.retryAt(DefaultRetryPolicy()).IsZero(), "nothing failed in a new round")
	writeRecord(st, "team/bert", record{})
	assert.NotContains(t, st.Annotations, recordKey("team/bert"))
	st.Annotations = map[string]string{recordKey("x"): "not json"}
	assert.Equal(t, record{}, readRecord(st, "x"), "an unreadable record is an empty one")
}

func TestModelStatusKeepsKServeValues(t *testing.T) {
	cases := []struct {
		cache    nodecache.State
		download downloadjob.State
		want     v1alpha1.ModelStatus
	}{
		{nodecache.Absent, "", v1alpha1.ModelDownloadPending},
		{nodecache.WaitingForCapacity, "", v1alpha1.ModelDownloadPending},
		{nodecache.Downloading, downloadjob.JobCreated, v1alpha1.ModelDownloadPending},
		{nodecache.Downloading, downloadjob.WaitingToRetry, v1alpha1.ModelDownloadPending},
		{nodecache.Downloading, downloadjob.Downloading, v1alpha1.ModelDownloading},
		{nodecache.Downloading, downloadjob.Verifying, v1alpha1.ModelDownloading},
		{nodecache.Cached, downloadjob.Downloaded, v1alpha1.ModelDownloaded},
		{nodecache.Cached, "", v1alpha1.ModelDownloaded},
		{nodecache.Failed, downloadjob.Failed, v1alpha1.ModelDownloadError},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, modelStatusOf(c.cache, c.download), "%s/%s", c.cache, c.download)
	}
}
