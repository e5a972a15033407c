package localmodelnode_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestDownloadReachesCachedAndKServeStatus(t *testing.T) {
	root, clk := t.TempDir(), clocktesting.NewFakeClock(epoch)
	agent := startAgent(t, "happy-node", root, clk, localmodelnode.DefaultRetryPolicy())
	llama := v1alpha1.LocalModelInfo{SourceModelUri: "gs://models/llama", ModelName: "llama", NodeGroup: "gpu"}
	n := createNode(t, "happy-node", llama)

	job := oneJob(t, "happy-node", &llama, 1)
	assert.Equal(t, localmodel.DownloadJobName("happy-node", &llama), job.Name)
	waitStates(t, "happy-node", "llama", "Downloading", "JobCreated")
	assert.Equal(t, v1alpha1.ModelDownloadPending, getNode(t, "happy-node").Status.ModelStatus["llama"])

	setJob(t, job, jobRunning)
	waitStates(t, "happy-node", "llama", "Downloading", "Downloading")
	assert.Equal(t, v1alpha1.ModelDownloading, getNode(t, "happy-node").Status.ModelStatus["llama"])

	setJob(t, job, jobSucceeded)
	waitStates(t, "happy-node", "llama", "Cached", "Downloaded")
	got := getNode(t, "happy-node")
	assert.Equal(t, v1alpha1.ModelDownloaded, got.Status.ModelStatus["llama"])
	marker := filepath.Join(localmodel.ModelFolder(root, v1alpha1.GetStorageKey(llama.SourceModelUri)), localmodel.SimulatedDownloadMarker)
	_, err := os.Stat(marker)
	assert.NoError(t, err, "the simulated download wrote the folder")
	eventually(t, 10*time.Second, func() string {
		return hasReasons(eventReasons(t, n), "DownloadRequested", "JobAccepted", "PodRunning", "JobSucceeded", "FolderVerified", "DownloadSucceeded")
	})
	assertEpisodeTraces(t, agent, got)
}

// assertEpisodeTraces: each lifecycle's episode is one trace holding its
// reconciles' steps, and its root span is emitted once it settled.
func assertEpisodeTraces(t *testing.T, agent *agentHandle, n *v1alpha1.LocalModelNode) {
	t.Helper()
	byTrace := map[string]map[string]bool{}
	for _, s := range agent.Spans.Ended() {
		id := s.SpanContext().TraceID().String()
		if byTrace[id] == nil {
			byTrace[id] = map[string]bool{}
		}
		byTrace[id][s.Name()] = true
	}
	download := byTrace[n.Status.Lifecycles["llama:download"].TraceID]
	for _, name := range []string{"Reconcile LocalModelNode", "Step EnsureDownloadJob", "Step VerifyModelFolder", "Transition", "Lifecycle LocalModelNode"} {
		assert.True(t, download[name], "download trace lacks %q: %v", name, download)
	}
	cache := byTrace[n.Status.Lifecycles["llama"].TraceID]
	for _, name := range []string{"Reconcile LocalModelNode", "Step WriteStatus", "Transition", "Lifecycle LocalModelNode"} {
		assert.True(t, cache[name], "cache trace lacks %q: %v", name, cache)
	}
}

func TestFailedAttemptsBackOffThenGiveUpThenRetryOnDelete(t *testing.T) {
	root, clk := t.TempDir(), clocktesting.NewFakeClock(epoch)
	startAgent(t, "retry-node", root, clk, localmodelnode.DefaultRetryPolicy())
	bert := v1alpha1.LocalModelInfo{SourceModelUri: "gs://models/bert", ModelName: "bert", NodeGroup: "gpu"}
	createNode(t, "retry-node", bert)

	first := oneJob(t, "retry-node", &bert, 1)
	setJob(t, first, jobFailed)
	waitStates(t, "retry-node", "bert", "Downloading", "WaitingToRetry")
	clk.Step(9 * time.Second)
	time.Sleep(300 * time.Millisecond)
	assert.Equal(t, first.UID, oneJob(t, "retry-node", &bert, 1).UID, "no new Job before the 10s backoff ends")

	clk.Step(time.Second)
	second := oneJob(t, "retry-node", &bert, 2)
	assert.NotEqual(t, first.UID, second.UID)
	assert.Equal(t, first.Name, second.Name, "one name per (node, model)")
	setJob(t, second, jobFailed)
	waitStates(t, "retry-node", "bert", "Downloading", "WaitingToRetry")
	clk.Step(20 * time.Second)
	third := oneJob(t, "retry-node", &bert, 3)
	setJob(t, third, jobFailed)
	waitStates(t, "retry-node", "bert", "Failed", "Failed")
	got := getNode(t, "retry-node")
	assert.Equal(t, v1alpha1.ModelDownloadError, got.Status.ModelStatus["bert"])
	assert.Equal(t, "BackoffLimitExceeded", got.Status.Lifecycles["bert"].Reason)
	assert.Contains(t, got.Status.Lifecycles["bert:download"].Message, "3 of 3")

	require.NoError(t, env.Client.Delete(context.Background(), &third, client.PropagationPolicy("Background")))
	fresh := oneJob(t, "retry-node", &bert, 1)
	assert.NotEqual(t, third.UID, fresh.UID, "deleting the failed Job starts a new round")
	waitStates(t, "retry-node", "bert", "Downloading", "JobCreated")
}

func TestRestartedAgentAdoptsTheRunningJob(t *testing.T) {
	root, clk := t.TempDir(), clocktesting.NewFakeClock(epoch)
	first := startAgent(t, "restart-node", root, clk, localmodelnode.DefaultRetryPolicy())
	gpt := v1alpha1.LocalModelInfo{SourceModelUri: "gs://models/gpt", ModelName: "gpt", NodeGroup: "gpu"}
	createNode(t, "restart-node", gpt)
	job := oneJob(t, "restart-node", &gpt, 1)
	setJob(t, job, jobRunning)
	waitStates(t, "restart-node", "gpt", "Downloading", "Downloading")

	first.Stop()
	startAgent(t, "restart-node", root, clk, localmodelnode.DefaultRetryPolicy())
	time.Sleep(500 * time.Millisecond)
	jobs := modelJobs(t, "restart-node", &gpt)
	require.Len(t, jobs, 1)
	assert.Equal(t, job.UID, jobs[0].UID, "the new agent found the Job by its labels")
	setJob(t, job, jobSucceeded)
	waitStates(t, "restart-node", "gpt", "Cached", "Downloaded")
}

func TestEvictionRemovesJobAndFolder(t *testing.T) {
	root, clk := t.TempDir(), clocktesting.NewFakeClock(epoch)
	startAgent(t, "evict-node", root, clk, localmodelnode.DefaultRetryPolicy())
	a := v1alpha1.LocalModelInfo{SourceModelUri: "gs://models/a", ModelName: "a", NodeGroup: "gpu"}
	b := v1alpha1.LocalModelInfo{SourceModelUri: "gs://models/b", ModelName: "b", NodeGroup: "gpu"}
	createNode(t, "evict-node", a, b)
	for _, m := range []*v1alpha1.LocalModelInfo{&a, &b} {
		setJob(t, oneJob(t, "evict-node", m, 1), jobSucceeded)
		waitStates(t, "evict-node", m.ModelName, "Cached", "Downloaded")
	}
	stray := localmodel.ModelFolder(root, "0000000000000000")
	require.NoError(t, localmodel.WriteSimulatedDownload(stray, "gs://gone", "old"))

	n := getNode(t, "evict-node")
	n.Spec.LocalModels = n.Spec.LocalModels[1:]
	require.NoError(t, env.Client.Update(context.Background(), n))
	eventually(t, 20*time.Second, func() string {
		n := getNode(t, "evict-node")
		if _, ok := n.Status.Lifecycles["a"]; ok {
			return "model a is still tracked: " + n.Status.Lifecycles["a"].State
		}
		if len(modelJobs(t, "evict-node", &a)) > 0 {
			return "model a's Job is still there"
		}
		return ""
	})
	_, err := os.Stat(localmodel.ModelFolder(root, v1alpha1.GetStorageKey(a.SourceModelUri)))
	assert.True(t, os.IsNotExist(err), "a's folder is removed")
	_, err = os.Stat(localmodel.ModelFolder(root, v1alpha1.GetStorageKey(b.SourceModelUri)))
	assert.NoError(t, err, "b's folder stays")
	_, err = os.Stat(stray)
	assert.True(t, os.IsNotExist(err), "a folder no entry references is removed")
	_, ok := getNode(t, "evict-node").Status.ModelStatus["a"]
	assert.False(t, ok)
	assert.NoError(t, env.Client.Get(context.Background(), client.ObjectKey{Name: "evict-node"}, n))
}
