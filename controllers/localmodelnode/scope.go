package localmodelnode

import (
	"context"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/nodecache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// downloadSuffix turns a model's status key into its download lifecycle's
// key. ':' appears in no model or namespace name, so the keys never collide.
const downloadSuffix = ":download"

func downloadKey(model string) string { return model + downloadSuffix }

// scope is one model reconcile's view: what was read, what the machines
// decided, what the steps did. It lives for one reconcile.
type scope struct {
	a      *Agent
	node   *v1alpha1.LocalModelNode
	orig   *v1alpha1.LocalModelNode
	cfg    *config.Config
	key    string
	attrs  []attribute.KeyValue
	entry  *v1alpha1.LocalModelInfo // nil once the spec no longer lists the model
	shared *v1alpha1.LocalModelInfo // the earlier entry whose download fills the same folder
	rec    record

	storageKey string
	folderPath string
	folder     localmodel.FolderCheck
	jobs       []batchv1.Job
	jobPods    []corev1.Pod
	nodeGroup  string
	desired    *batchv1.Job
	problem    *localmodel.JobProblem
	// fingerprint identifies what the Job is built from now.
	fingerprint string
	capacity    nodecache.Capacity

	cache          *machineRun[nodecache.State, nodecache.Trigger, nodecache.Observation]
	download       *machineRun[downloadjob.State, downloadjob.Trigger, downloadjob.Observation]
	downloadDriven bool
	freshDownload  bool
	// cacheBeforeDownload counts the node cache transitions taken before the
	// download machine ran, to publish Events in order.
	cacheBeforeDownload int
	runErrs             []error
	jobsGone            bool
	forget              bool
	changed             bool
	errs                []error
	requeueAfter        time.Duration
}

func newScope(a *Agent, node *v1alpha1.LocalModelNode, cfg *config.Config, key string) *scope {
	return &scope{a: a, node: node, orig: node.DeepCopy(), cfg: cfg, key: key,
		attrs: append(lifecycle.ObjectAttributes(node), attribute.String("fsmserve.model", key))}
}

// observe reads what both machines decide on: the spec entry, the folder,
// the model's Jobs, the Job it would create and, before a download starts,
// the node group's capacity. Errors are transient and requeue.
func (sc *scope) observe(ctx context.Context) error {
	sc.entry, sc.shared = findEntry(sc.node.Spec.LocalModels, sc.key)
	sc.rec = readRecord(&sc.node.Status, sc.key)
	sc.storageKey = sc.rec.StorageKey
	if sc.entry != nil {
		sc.storageKey = v1alpha1.GetStorageKey(sc.entry.SourceModelUri)
	}
	if sc.storageKey != "" {
		sc.folderPath = localmodel.ModelFolder(sc.a.ModelsRoot, sc.storageKey)
		check, err := localmodel.CheckModelFolder(sc.folderPath)
		if err != nil {
			return err
		}
		sc.folder = check
	}
	if err := sc.observeJobs(ctx); err != nil {
		return err
	}
	if sc.entry == nil {
		return nil
	}
	if err := sc.buildDesired(ctx, sc.rec.Attempt+1, ""); err != nil {
		return err
	}
	c, err := sc.observeCapacity(ctx)
	sc.capacity = c
	return err
}

func (sc *scope) observeJobs(ctx context.Context) error {
	sel := localmodel.DownloadJobSelector(sc.a.NodeName, sc.info())
	if err := sc.listJobs(ctx, sc.a.Client, sel); err != nil {
		return err
	}
	// The Job cache may not have caught up with a Job this agent created a
	// moment ago: before calling a Job the record expects "vanished", ask
	// the API server.
	if sc.expectsLiveJob() && !currentJob(sc.jobs).live() {
		if err := sc.listJobs(ctx, sc.a.Fresh, sel); err != nil {
			return err
		}
	}
	pods := &corev1.PodList{}
	if err := sc.a.Client.List(ctx, pods, client.InNamespace(sc.a.JobNamespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return err
	}
	sc.jobPods = pods.Items
	return nil
}

// info is the model's spec entry, or what its key says once it left the spec.
func (sc *scope) info() *v1alpha1.LocalModelInfo {
	if sc.entry != nil {
		return sc.entry
	}
	m := &v1alpha1.LocalModelInfo{ModelName: sc.key}
	if ns, name, ok := strings.Cut(sc.key, "/"); ok {
		m.Namespace, m.ModelName = ns, name
	}
	return m
}

// findEntry returns the spec entry with key, and the first earlier entry with
// the same source URI (same folder), whose download this one shares.
func findEntry(list []v1alpha1.LocalModelInfo, key string) (entry, shared *v1alpha1.LocalModelInfo) {
	for i := range list {
		if list[i].GetStatusKey() != key {
			continue
		}
		entry = &list[i]
		sk := v1alpha1.GetStorageKey(entry.SourceModelUri)
		for j := 0; j < i; j++ {
			if v1alpha1.GetStorageKey(list[j].SourceModelUri) == sk {
				return entry, &list[j]
			}
		}
		return entry, nil
	}
	return nil, nil
}

// referenced reports whether some spec entry keeps the folder storageKey.
func referenced(list []v1alpha1.LocalModelInfo, storageKey string) bool {
	for i := range list {
		if v1alpha1.GetStorageKey(list[i].SourceModelUri) == storageKey {
			return true
		}
	}
	return false
}

// storedLifecycle returns the lifecycle stored under key, or nil.
func (sc *scope) storedLifecycle(key string) *common.Lifecycle {
	l, ok := sc.node.Status.Lifecycles[key]
	if !ok {
		return nil
	}
	return &l
}

// listJobs reads this model's download Jobs. A Job left by an earlier
// LocalModelNode of the same name is not this model's: the housekeeping
// deletes it.
func (sc *scope) listJobs(ctx context.Context, r client.Reader, sel labels.Selector) error {
	list := &batchv1.JobList{}
	if err := r.List(ctx, list, client.InNamespace(sc.a.JobNamespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return err
	}
	sc.jobs = sc.jobs[:0]
	for i := range list.Items {
		if localmodel.ControlledBy(&list.Items[i], sc.node.UID) {
			sc.jobs = append(sc.jobs, list.Items[i])
		}
	}
	return nil
}

// expectsLiveJob says whether the stored download lifecycle has a Job running.
func (sc *scope) expectsLiveJob() bool {
	switch downloadjob.State(sc.storedState(downloadKey(sc.key))) {
	case downloadjob.JobCreated, downloadjob.Downloading:
		return true
	}
	return false
}

func (sc *scope) storedState(key string) string {
	if l := sc.storedLifecycle(key); l != nil {
		return l.State
	}
	return ""
}
