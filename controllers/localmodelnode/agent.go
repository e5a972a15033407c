// Package localmodelnode is the node agent (`fsmserve localmodel-agent`, one
// per node): it reconciles the LocalModelNode named after its node, one model
// at a time, through two lifecycle machines per model: the node cache
// (machines/nodecache: capacity, the folder on disk, eviction) and the
// download Job (machines/downloadjob: one live Job, verification, retries
// with backoff). Each model reconcile observes, lets the machines decide,
// runs the steps, writes its part of status once and only then publishes
// Events and spans, like every fsmserve controller.
package localmodelnode

import (
	"context"
	"time"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
)

// Request is one unit of the agent's work: one model of its node, by status
// key, or (Model empty) the node-wide housekeeping.
type Request struct {
	Model string
}

// allModels is the wake-up that asks for every model and the housekeeping.
const allModels = "*"

// RetryPolicy bounds the download attempts of one round and spaces them.
type RetryPolicy struct {
	// MaxAttempts is the number of Jobs a round may create (3 by default).
	MaxAttempts int
	// Backoff is the wait after the first failed attempt; it doubles after
	// each further one, up to MaxBackoff.
	Backoff    time.Duration
	MaxBackoff time.Duration
}

// DefaultRetryPolicy: three attempts, 10s then 20s between them.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: 3, Backoff: 10 * time.Second, MaxBackoff: 5 * time.Minute}
}

// After returns the wait after the attempt-th failed attempt.
func (p RetryPolicy) After(attempt int) time.Duration {
	d := p.Backoff
	for i := 1; i < attempt && d < p.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, p.MaxBackoff)
}

// Agent reconciles the LocalModelNode of one node.
type Agent struct {
	Client client.Client
	// Fresh reads around the cache: the Job list before a create must not be stale.
	Fresh  client.Reader
	Clock  clock.WithDelayedExecution
	Config *config.Source
	// CachePublisher and DownloadPublisher publish the two machines' transitions.
	CachePublisher    *lifecycle.Publisher
	DownloadPublisher *lifecycle.Publisher
	// NodeName is the node this agent runs on; the LocalModelNode has its name.
	NodeName string
	// ModelsRoot is where the node's model volume is mounted (KServe: /mnt/models).
	ModelsRoot string
	// JobNamespace is where download Jobs run (localModel.jobNamespace at start).
	JobNamespace string
	Retry        RetryPolicy
	// SimulateDownloads makes the agent write the model folder itself when a
	// download Job reports success. It stands in for the Job's work on fake
	// nodes (fsmserve dev, scenarios), where no pod runs; real clusters never
	// set it.
	SimulateDownloads bool

	wake *wakeups
	// fresh keeps reconciles off cached copies older than our status writes.
	fresh lifecycle.Freshness
}

// staleRetry is how soon a reconcile that read a stale node comes back.
const staleRetry = 20 * time.Millisecond

func (a *Agent) now() time.Time { return a.Clock.Now() }

// Reconcile runs one model's machines, or the node-wide housekeeping.
func (a *Agent) Reconcile(ctx context.Context, req Request) (ctrl.Result, error) {
	node := &v1alpha1.LocalModelNode{}
	key := client.ObjectKey{Name: a.NodeName}
	if err := a.Client.Get(ctx, key, node); err != nil {
		a.fresh.Forget(key)
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// Steps create and delete Jobs before the status write's optimistic lock
	// could object, so they must never run from a copy older than our own
	// last status write (it would, say, replace a Job that just succeeded).
	if a.fresh.Stale(key, node.ResourceVersion) {
		return ctrl.Result{RequeueAfter: staleRetry}, nil
	}
	cfg, _, err := a.Config.Load(ctx)
	if err != nil {
		return ctrl.Result{}, err
	}
	var res ctrl.Result
	if req.Model == "" || req.Model == allModels {
		res, err = a.housekeep(ctx, node, cfg)
	} else {
		res, err = a.reconcileModel(ctx, node, cfg, req.Model)
	}
	if err != nil && ctx.Err() != nil {
		return ctrl.Result{}, nil // shutting down: the next agent redoes the work
	}
	return res, err
}

// reconcileModel is the skeleton: observe, decide and act through the node
// cache machine (which drives the download machine), write status once, then
// publish.
func (a *Agent) reconcileModel(ctx context.Context, node *v1alpha1.LocalModelNode, cfg *config.Config, key string) (ctrl.Result, error) {
	sc := newScope(a, node, cfg, key)
	if err := sc.observe(ctx); err != nil {
		return ctrl.Result{}, err
	}
	sc.runCache(ctx)
	sc.deriveStatus(ctx)
	if err := sc.persist(ctx); err != nil {
		return sc.persistFailed(ctx, err)
	}
	sc.publish(ctx)
	return sc.result(ctx)
}
