package localmodelnode_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// TestNoSecondLiveDownloadJobUnderRacingAgentsAndRestarts runs three agents
// for the same node against one API server (as during a DaemonSet rollout, or
// a split brain), restarts them at random, and plays a hostile world: Jobs
// run, fail and succeed at random, model folders vanish, the clock jumps. A
// watch checks every state the API server ever held: no (node, model) may
// have two live download Jobs at any point.
func TestNoSecondLiveDownloadJobUnderRacingAgentsAndRestarts(t *testing.T) {
	const node, agents = "race-node", 3
	root, clk := t.TempDir(), clocktesting.NewFakeClock(epoch)
	checker := watchLiveJobs(t, node)
	retry := localmodelnode.RetryPolicy{MaxAttempts: 1 << 20, Backoff: time.Second, MaxBackoff: time.Second}
	models := []v1alpha1.LocalModelInfo{
		{SourceModelUri: "gs://race/a", ModelName: "a", NodeGroup: "gpu"},
		{SourceModelUri: "gs://race/b", ModelName: "b", NodeGroup: "gpu"},
		{SourceModelUri: "s3://race/c", ModelName: "c", Namespace: "team", NodeGroup: "gpu"},
	}
	createNode(t, node, models...)
	running := make([]*agentHandle, agents)
	for i := range running {
		running[i] = startAgent(t, node, root, clk, retry)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	restarts := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		playWorld(t, rng, node, root, models)
		// Ten seconds a step: backoffs end at once, the periodic folder check
		// (60s) comes every sixth step.
		clk.Step(10 * time.Second)
		if rng.IntN(8) == 0 {
			i := rng.IntN(agents)
			running[i].Stop()
			running[i] = startAgent(t, node, root, clk, retry)
			restarts++
		}
		time.Sleep(time.Duration(20+rng.IntN(60)) * time.Millisecond)
	}
	for _, a := range running {
		a.Stop()
	}
	time.Sleep(500 * time.Millisecond) // let the watch deliver the last events
	created, violations := checker.result()
	assert.Empty(t, violations)
	assert.GreaterOrEqual(t, created, 15, "the world must have made the agents create many Jobs for the test to mean anything")
	assert.Greater(t, restarts, 3)
	t.Logf("%d download Jobs created across %d agent restarts", created, restarts)
}

// playWorld moves every live Job of node one random step and, now and then,
// deletes a model folder (the agents must download it again).
func playWorld(t *testing.T, rng *rand.Rand, node, root string, models []v1alpha1.LocalModelInfo) {
	list := &batchv1.JobList{}
	if err := env.Client.List(context.Background(), list, client.InNamespace(config.DefaultLocalModelJobNamespace),
		client.MatchingLabelsSelector{Selector: localmodel.NodeJobSelector(node)}); err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		j := &list.Items[i]
		if localmodel.JobFinished(j) {
			continue
		}
		// Failures are likelier than successes: they make the agents replace Jobs.
		step := []func(*batchv1.Job, metav1.Time){jobRunning, jobRunning, jobFailed, jobFailed, jobFailed, jobSucceeded, nil}[rng.IntN(7)]
		if step != nil {
			_ = trySetJob(j, step) // the Job may have been replaced meanwhile
		}
	}
	if rng.IntN(3) == 0 {
		m := models[rng.IntN(len(models))]
		_ = localmodel.RemoveModelFolder(localmodel.ModelFolder(root, v1alpha1.GetStorageKey(m.SourceModelUri)))
	}
}

func trySetJob(j *batchv1.Job, mutate func(*batchv1.Job, metav1.Time)) error {
	cur := j.DeepCopy()
	now := metav1.Now()
	if cur.Status.StartTime == nil {
		cur.Status.StartTime = &now
	}
	mutate(cur, now)
	return env.Client.Status().Update(context.Background(), cur)
}

// TestEnsureDownloadJobCreatesOneUnderContention races twenty creators at
// the create path itself, twice: for the first Job, and for the retry that
// replaces a failed one. Exactly one creation wins each time.
func TestEnsureDownloadJobCreatesOneUnderContention(t *testing.T) {
	n := createNode(t, "contended-node", v1alpha1.LocalModelInfo{SourceModelUri: "gs://x/y", ModelName: "y", NodeGroup: "gpu"})
	m := &n.Spec.LocalModels[0]
	lm := config.Default().LocalModel
	for attempt := 1; attempt <= 2; attempt++ {
		desired, problem := localmodel.DownloadJob(localmodel.JobInput{Node: n, Model: *m, NodeGroup: "gpu", Config: lm, Attempt: attempt})
		require.Nil(t, problem)
		var wg sync.WaitGroup
		var mu sync.Mutex
		created, errs := 0, []error(nil)
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				job, made, err := localmodel.EnsureDownloadJob(context.Background(), env.Client, env.Client, desired.DeepCopy(), localmodel.DownloadJobSelector(n.Name, m))
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
					return
				}
				if made {
					created++
				}
				if job.Labels[localmodel.JobLabelAttempt] != fmt.Sprint(attempt) {
					errs = append(errs, fmt.Errorf("got attempt %s, want %d", job.Labels[localmodel.JobLabelAttempt], attempt))
				}
			}()
		}
		wg.Wait()
		assert.Empty(t, errs)
		assert.Equal(t, 1, created, "attempt %d: exactly one creator wins", attempt)
		jobs := modelJobs(t, n.Name, m)
		require.Len(t, jobs, 1)
		setJob(t, jobs[0], jobFailed)
	}
}
