package localmodelnode

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/equality"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/nodecache"
)

// deriveStatus writes this model's part of status in memory: its two
// lifecycle blocks, KServe's modelStatus and the agent's record. A model
// evicted and gone from the spec is forgotten.
func (sc *scope) deriveStatus(_ context.Context) {
	st := &sc.node.Status
	if sc.forget {
		delete(st.Lifecycles, sc.key)
		delete(st.Lifecycles, downloadKey(sc.key))
		delete(st.ModelStatus, sc.key)
		writeRecord(st, sc.key, record{})
		return
	}
	if st.Lifecycles == nil {
		st.Lifecycles = map[string]common.Lifecycle{}
	}
	st.Lifecycles[sc.key] = sc.cache.l
	if sc.download != nil {
		st.Lifecycles[downloadKey(sc.key)] = sc.download.l
	}
	if sc.entry != nil {
		if st.ModelStatus == nil {
			st.ModelStatus = map[string]v1alpha1.ModelStatus{}
		}
		st.ModelStatus[sc.key] = modelStatusOf(sc.cache.m.State(), sc.downloadState())
	} else {
		delete(st.ModelStatus, sc.key)
	}
	sc.rec.StorageKey = sc.storageKey
	writeRecord(st, sc.key, sc.rec)
}

// downloadState is the state of the download that fills this model's
// folder: its own, or the shared entry's.
func (sc *scope) downloadState() downloadjob.State {
	if sc.download != nil {
		return sc.download.m.State()
	}
	owner := sc.key
	if sc.shared != nil {
		owner = sc.shared.GetStatusKey()
	}
	return downloadjob.State(sc.storedState(downloadKey(owner)))
}

// modelStatusOf keeps KServe's values: Downloaded when cached, DownloadError
// when the download gave up, Downloading while a pod runs or the folder is
// checked, Pending otherwise (waiting for capacity, a pod, or a retry).
func modelStatusOf(cache nodecache.State, download downloadjob.State) v1alpha1.ModelStatus {
	switch cache {
	case nodecache.Cached:
		return v1alpha1.ModelDownloaded
	case nodecache.Failed:
		return v1alpha1.ModelDownloadError
	case nodecache.Downloading:
		if download == downloadjob.Downloading || download == downloadjob.Verifying || download == downloadjob.Downloaded {
			return v1alpha1.ModelDownloading
		}
	}
	return v1alpha1.ModelDownloadPending
}

// persist writes this model's part of status with a merge patch under
// optimistic locking (the resourceVersion read at the start), and skips the
// write when nothing changed. Other models' keys are not in the patch.
func (sc *scope) persist(ctx context.Context) error {
	if apierrors.Semantic.DeepEqual(sc.orig.Status, sc.node.Status) {
		return nil
	}
	end := sc.cache.spans.Start("Step WriteStatus")
	replaced := sc.orig.ResourceVersion
	err := sc.a.Client.Status().Patch(ctx, sc.node, client.MergeFromWithOptions(sc.orig, client.MergeFromWithOptimisticLock{}))
	end(err)
	if err == nil {
		sc.a.fresh.Wrote(client.ObjectKeyFromObject(sc.node), replaced)
	}
	return err
}

// persistFailed: nothing is published; a conflict (another model's write
// came first) retries at once from fresh observations, which redo the edge.
func (sc *scope) persistFailed(ctx context.Context, err error) (ctrl.Result, error) {
	if kerrors.IsConflict(err) {
		log.FromContext(ctx).V(1).Info("status changed meanwhile; reconciling the model again", "model", sc.key)
		return ctrl.Result{RequeueAfter: 20 * time.Millisecond}, nil
	}
	return ctrl.Result{}, err
}

// publish emits both machines' Events and spans, after the status write,
// in the order the transitions happened: the node cache's up to the step that
// drove the download, the download's, then the rest of the node cache's.
func (sc *scope) publish(ctx context.Context) {
	if sc.download == nil {
		sc.cache.publish(ctx, sc.a.CachePublisher, sc.node, sc.changed)
		return
	}
	sc.cache.publishEventsUpTo(ctx, sc.a.CachePublisher, sc.node, sc.cacheBeforeDownload)
	sc.download.publish(ctx, sc.a.DownloadPublisher, sc.node, sc.changed)
	sc.cache.publishFrom(ctx, sc.a.CachePublisher, sc.node, sc.changed, min(sc.cacheBeforeDownload, len(sc.cache.records)))
}

// result requeues for transient step errors (with backoff) and for waits the
// machines cannot be woken from (a Job name still held).
func (sc *scope) result(ctx context.Context) (ctrl.Result, error) {
	sc.logRunErrs(ctx)
	return ctrl.Result{RequeueAfter: sc.requeueAfter}, utilerrors.NewAggregate(sc.errs)
}

func (sc *scope) recordErr(err error) {
	if err != nil {
		sc.errs = append(sc.errs, err)
	}
}

func (sc *scope) requeue(d time.Duration) {
	if sc.requeueAfter == 0 || d < sc.requeueAfter {
		sc.requeueAfter = d
	}
}
