package localmodelnode_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// liveJobChecker follows every change to a node's download Jobs in the
// order etcd applied them (one watch from one resourceVersion) and records
// any moment at which one (node, model) has more than one live Job. Since
// the watch sees every state the API server ever held, "no violation" means
// at no point, not just at the moments a test looked.
type liveJobChecker struct {
	mu         sync.Mutex
	jobs       map[types.UID]jobFact
	created    int
	violations []string
}

type jobFact struct {
	key, name string
	live      bool
}

func newLiveJobChecker() *liveJobChecker {
	return &liveJobChecker{jobs: map[types.UID]jobFact{}}
}

// observe applies one watch event and checks the invariant.
func (c *liveJobChecker) observe(t watch.EventType, j *batchv1.Job) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key, _ := localmodel.ModelKeyOfJob(j.Annotations, j.Labels)
	switch t {
	case watch.Deleted:
		delete(c.jobs, j.UID)
		return
	case watch.Added:
		c.created++
	}
	c.jobs[j.UID] = jobFact{key: key, name: j.Name, live: !localmodel.JobFinished(j)}
	var live []string
	for uid, f := range c.jobs {
		if f.key == key && f.live {
			live = append(live, fmt.Sprintf("%s (uid %s)", f.name, uid))
		}
	}
	if len(live) > 1 {
		c.violations = append(c.violations, fmt.Sprintf("model %s had %d live Jobs at resourceVersion %s: %v", key, len(live), j.ResourceVersion, live))
	}
}

func (c *liveJobChecker) result() (created int, violations []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.created, append([]string(nil), c.violations...)
}

// watchLiveJobs starts a checker on the download Jobs of node.
func watchLiveJobs(t *testing.T, node string) *liveJobChecker {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(env.Config)
	jobs := cs.BatchV1().Jobs(config.DefaultLocalModelJobNamespace)
	sel := localmodel.NodeJobSelector(node).String()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	list, err := jobs.List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	c := newLiveJobChecker()
	for i := range list.Items {
		c.observe(watch.Modified, &list.Items[i])
	}
	w, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.LabelSelector = sel
			return jobs.Watch(ctx, o)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	go func() {
		for e := range w.ResultChan() {
			if j, ok := e.Object.(*batchv1.Job); ok {
				c.observe(e.Type, j)
			}
		}
	}()
	return c
}

// TestCheckerSeesASecondLiveJob is the checker's own negative control: it
// must flag two live Jobs of one model, and not two of different models or a
// finished one beside a live one.
func TestCheckerSeesASecondLiveJob(t *testing.T) {
	job := func(uid, model string, finished bool) *batchv1.Job {
		j := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{UID: types.UID(uid), Name: uid,
			Labels: map[string]string{localmodel.JobLabelModel: model}}}
		if finished {
			jobSucceeded(j, metav1.Now())
		}
		return j
	}
	c := newLiveJobChecker()
	c.observe(watch.Added, job("a1", "a", true))
	c.observe(watch.Added, job("a2", "a", false))
	c.observe(watch.Added, job("b1", "b", false))
	if _, v := c.result(); len(v) != 0 {
		t.Fatalf("false alarm: %v", v)
	}
	c.observe(watch.Deleted, job("a2", "a", false))
	c.observe(watch.Added, job("a3", "a", false))
	if _, v := c.result(); len(v) != 0 {
		t.Fatalf("a deleted Job still counted: %v", v)
	}
	c.observe(watch.Added, job("a4", "a", false))
	if created, v := c.result(); len(v) != 1 || created != 5 {
		t.Fatalf("want one violation after 5 creations, got %d after %d: %v", len(v), created, v)
	}
}
