package localmodelnode_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// eventually polls cond until it returns "" or the timeout passes; the last
// non-empty answer explains the failure.
func eventually(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		if last = cond(); last == "" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("not met within %s: %s", timeout, last)
}

func createNode(t *testing.T, name string, models ...v1alpha1.LocalModelInfo) *v1alpha1.LocalModelNode {
	t.Helper()
	n := &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1alpha1.LocalModelNodeSpec{LocalModels: models}}
	if err := env.Client.Create(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), n) })
	return n
}

func getNode(t *testing.T, name string) *v1alpha1.LocalModelNode {
	t.Helper()
	n := &v1alpha1.LocalModelNode{}
	if err := env.Client.Get(context.Background(), client.ObjectKey{Name: name}, n); err != nil {
		t.Fatal(err)
	}
	return n
}

// states reads the node cache and download states of a model.
func states(t *testing.T, node, model string) (cache, download string) {
	n := getNode(t, node)
	return n.Status.Lifecycles[model].State, n.Status.Lifecycles[model+":download"].State
}

// waitStates waits until a model's machines rest in the given states.
func waitStates(t *testing.T, node, model, cache, download string) {
	t.Helper()
	eventually(t, 20*time.Second, func() string {
		c, d := states(t, node, model)
		if c == cache && d == download {
			return ""
		}
		return fmt.Sprintf("model %s: cache %q download %q, want %q %q", model, c, d, cache, download)
	})
}

// modelJobs lists the download Jobs of a model on a node.
func modelJobs(t *testing.T, node string, m *v1alpha1.LocalModelInfo) []batchv1.Job {
	t.Helper()
	list := &batchv1.JobList{}
	if err := env.Client.List(context.Background(), list, client.InNamespace(config.DefaultLocalModelJobNamespace),
		client.MatchingLabelsSelector{Selector: localmodel.DownloadJobSelector(node, m)}); err != nil {
		t.Fatal(err)
	}
	return list.Items
}

// oneJob waits until exactly one Job of the model exists with the attempt.
func oneJob(t *testing.T, node string, m *v1alpha1.LocalModelInfo, attempt int) batchv1.Job {
	t.Helper()
	var got batchv1.Job
	eventually(t, 20*time.Second, func() string {
		jobs := modelJobs(t, node, m)
		if len(jobs) == 1 && localmodel.AttemptOfJob(jobs[0].Labels) == attempt {
			got = jobs[0]
			return ""
		}
		return fmt.Sprintf("%d Jobs (want one, attempt %d)", len(jobs), attempt)
	})
	return got
}

// The Job status changes below write what the Job controller would, in the
// order the API server accepts.
func setJob(t *testing.T, j batchv1.Job, mutate func(*batchv1.Job, metav1.Time)) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur := &batchv1.Job{}
		if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(&j), cur); err != nil {
			return err
		}
		now := metav1.Now()
		if cur.Status.StartTime == nil {
			cur.Status.StartTime = &now
		}
		mutate(cur, now)
		return env.Client.Status().Update(context.Background(), cur)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func jobRunning(j *batchv1.Job, _ metav1.Time) {
	one := int32(1)
	j.Status.Active, j.Status.Ready = 1, &one
}

func jobSucceeded(j *batchv1.Job, now metav1.Time) {
	zero := int32(0)
	j.Status.Active, j.Status.Ready, j.Status.Succeeded, j.Status.CompletionTime = 0, &zero, 1, &now
	j.Status.Conditions = append(j.Status.Conditions,
		batchv1.JobCondition{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, Reason: "CompletionsReached", LastTransitionTime: now},
		batchv1.JobCondition{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, Reason: "CompletionsReached", LastTransitionTime: now})
}

func jobFailed(j *batchv1.Job, now metav1.Time) {
	zero := int32(0)
	j.Status.Active, j.Status.Ready, j.Status.Failed = 0, &zero, 7
	j.Status.Conditions = append(j.Status.Conditions,
		batchv1.JobCondition{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", Message: "Job has reached the specified backoff limit", LastTransitionTime: now},
		batchv1.JobCondition{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", Message: "Job has reached the specified backoff limit", LastTransitionTime: now})
}

// eventReasons lists the reasons of the Events about a LocalModelNode, oldest first.
func eventReasons(t *testing.T, n *v1alpha1.LocalModelNode) []string {
	t.Helper()
	list := &eventsv1.EventList{}
	if err := env.Client.List(context.Background(), list, client.InNamespace(metav1.NamespaceDefault)); err != nil {
		t.Fatal(err)
	}
	var evs []eventsv1.Event
	for _, e := range list.Items {
		if e.Regarding.UID == n.UID {
			evs = append(evs, e)
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].EventTime.Before(&evs[j].EventTime) })
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		out = append(out, e.Reason)
	}
	return out
}

func hasReasons(got []string, want ...string) string {
	joined := " " + strings.Join(got, " ") + " "
	for _, w := range want {
		if !strings.Contains(joined, " "+w+" ") {
			return fmt.Sprintf("no event %s in %v", w, got)
		}
	}
	return ""
}
