package localmodelnode

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/engine"
	"github.com/fsmserve/fsmserve/machines/nodecache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// runCache runs the node cache machine; its Downloading, Failed and Evicting
// steps drive the download machine.
func (sc *scope) runCache(ctx context.Context) {
	obs := sc.cacheObservation()
	sc.cache = beginRun(nodecache.Definition, sc.storedLifecycle(sc.key), sc.node.Generation, sc.a.now, obs, sc.attrs...)
	obs, err := sc.cache.m.Run(ctx, obs, sc.cacheStep)
	sc.noteRunErr(err)
	sc.cache.finish(ctx)
	sc.forget = sc.cache.m.State() == nodecache.Absent && !obs.InSpec
}

// cacheObservation distils the scope for the node cache machine. The
// download's phase starts as stored; driving the download updates it.
func (sc *scope) cacheObservation() nodecache.Observation {
	o := nodecache.Observation{
		Model: sc.key, InSpec: sc.entry != nil,
		Folder:   nodecache.Folder{Path: sc.folderPath, Verified: sc.folder.Verified, Problem: sc.folder.Problem},
		Capacity: sc.capacity,
	}
	if sc.entry != nil {
		o.SourceModelUri = sc.entry.SourceModelUri
	}
	owner := sc.key
	if sc.shared != nil {
		owner = sc.shared.GetStatusKey()
	}
	o.Download = phaseOf(downloadjob.State(sc.storedState(downloadKey(owner))), downloadjob.Observation{})
	return o
}

// cacheStep runs the node cache state's step.
func (sc *scope) cacheStep(ctx context.Context, s nodecache.State, o nodecache.Observation) nodecache.Observation {
	switch s {
	case nodecache.Downloading, nodecache.Failed:
		return sc.driveDownload(ctx, o, true)
	case nodecache.Evicting:
		return sc.evict(ctx, o)
	}
	return o
}

// evict cancels the model's download (deleting its Jobs) and removes its
// folder, unless another spec entry still uses the same folder.
func (sc *scope) evict(ctx context.Context, o nodecache.Observation) nodecache.Observation {
	if sc.storedLifecycle(downloadKey(sc.key)) != nil {
		o = sc.driveDownload(ctx, o, false)
	} else {
		sc.deleteJobs(ctx, sc.cache.spans)
	}
	folderGone := true
	if sc.storageKey != "" && !referenced(sc.node.Spec.LocalModels, sc.storageKey) {
		end := sc.cache.spans.Start("Step RemoveModelFolder", attribute.String("fsmserve.folder", sc.folderPath))
		err := localmodel.RemoveModelFolder(sc.folderPath)
		end(err)
		sc.recordErr(err)
		folderGone = err == nil
		sc.changed = sc.changed || (err == nil && sc.folder.Verified)
		o.Folder.Verified = !folderGone && o.Folder.Verified
	}
	o.Evicted = sc.jobsGone && folderGone
	return o
}

// deleteJobs deletes every Job of the model; jobsGone says whether none is left.
func (sc *scope) deleteJobs(ctx context.Context, spans *tracing.Recorder) {
	if len(sc.jobs) == 0 {
		sc.jobsGone = true
		return
	}
	end := spans.Start("Step DeleteDownloadJobs")
	deleted, remaining, err := localmodel.DeleteDownloadJobs(ctx, sc.a.Client, sc.a.Fresh, sc.a.JobNamespace, localmodel.DownloadJobSelector(sc.a.NodeName, sc.info()))
	end(err, attribute.Int("fsmserve.deleted", deleted))
	sc.recordErr(err)
	sc.changed = sc.changed || deleted > 0
	sc.jobsGone = err == nil && remaining == 0
}

// noteRunErr keeps what stopped a machine early: a hop limit continues at
// once, a definition error is a bug worth an error, an unpermitted trigger
// is benign in a level-triggered controller.
func (sc *scope) noteRunErr(err error) {
	var hop *engine.HopLimitError
	var def *engine.DefinitionError
	switch {
	case err == nil:
	case errors.As(err, &def):
		sc.errs = append(sc.errs, err)
	case errors.As(err, &hop):
		sc.requeue(50 * time.Millisecond)
	default:
		sc.runErrs = append(sc.runErrs, err)
	}
}

func (sc *scope) logRunErrs(ctx context.Context) {
	for _, err := range sc.runErrs {
		log.FromContext(ctx).V(1).Info("observation implied a trigger the state does not take", "model", sc.key, "error", err.Error())
	}
}
