package localmodelnode

import (
	"context"
	"fmt"
	"sort"
	"time"

	"go.opentelemetry.io/otel/attribute"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/nodecache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// ReasonJobRejected is the reason when the API server refuses a download Job.
const ReasonJobRejected = "JobRejected"

// buildDesired builds the Job this model would be downloaded with now, or the
// problem that prevents it, and fingerprints either.
func (sc *scope) buildDesired(ctx context.Context, attempt int, traceParent string) error {
	facts, err := sc.cacheFactsOf(ctx, sc.entry)
	if err != nil {
		return err
	}
	sc.nodeGroup = nodeGroupOf(sc.entry, facts)
	containers := &v1alpha1.ClusterStorageContainerList{}
	if err := sc.a.Client.List(ctx, containers); err != nil {
		return err
	}
	lm := sc.cfg.LocalModel
	lm.JobNamespace = sc.a.JobNamespace
	sc.desired, sc.problem = localmodel.DownloadJob(localmodel.JobInput{
		Node: sc.node, Model: *sc.entry, NodeGroup: sc.nodeGroup, Config: lm,
		StorageContainers: containers.Items, Attempt: attempt, TraceParent: traceParent,
	})
	if sc.problem != nil {
		sc.fingerprint = localmodel.ProblemFingerprint(sc.problem)
	} else {
		sc.fingerprint = localmodel.JobFingerprint(sc.desired)
	}
	return nil
}

// driveDownload runs the download machine once per reconcile, from the node
// cache's step, and reads its outcome back into the cache's observation. An
// entry that shares its folder with an earlier one follows that one's
// download instead of starting its own.
func (sc *scope) driveDownload(ctx context.Context, o nodecache.Observation, wanted bool) nodecache.Observation {
	if sc.downloadDriven {
		return o
	}
	sc.downloadDriven = true
	sc.cacheBeforeDownload = len(sc.cache.m.Journal())
	if sc.shared != nil && wanted {
		o.Download = phaseOf(downloadjob.State(sc.storedState(downloadKey(sc.shared.GetStatusKey()))), downloadjob.Observation{})
		o.Download.SharedWith = sc.shared.GetStatusKey()
		return o
	}
	stored := sc.storedLifecycle(downloadKey(sc.key))
	if stored != nil && stored.State == string(downloadjob.Cancelled) && wanted {
		stored = nil // a model listed again downloads in a fresh lifecycle
	}
	sc.freshDownload = stored == nil
	dobs := sc.downloadObservation(wanted)
	sc.download = beginRun(downloadjob.Definition, stored, sc.node.Generation, sc.a.now, dobs, sc.attrs...)
	dobs, err := sc.download.m.Run(ctx, dobs, sc.downloadStep)
	sc.noteRunErr(err)
	sc.download.finish(ctx)
	o.Download = phaseOf(sc.download.m.State(), dobs)
	if v := dobs.Verification; v.Done {
		o.Folder.Verified = v.OK
	}
	return o
}

// phaseOf reads the download machine's state as the node cache needs it.
func phaseOf(s downloadjob.State, o downloadjob.Observation) nodecache.Download {
	d := nodecache.Download{State: string(s)}
	switch s {
	case "", downloadjob.Cancelled:
		d.Phase = nodecache.NotStarted
	case downloadjob.Downloaded:
		d.Phase = nodecache.Succeeded
	case downloadjob.Failed:
		d.Phase = nodecache.GaveUp
		f := downloadjob.LastFailure(o)
		d.Reason, d.Message = f.Reason, f.Message
	default:
		d.Phase = nodecache.Running
	}
	return d
}

// downloadObservation distils the Jobs, the disk and the record.
func (sc *scope) downloadObservation(wanted bool) downloadjob.Observation {
	job := currentJob(sc.jobs)
	o := downloadjob.Observation{
		Model: sc.key, Wanted: wanted, Job: jobView(job, sc.jobName(), sc.jobPods),
		Folder:  downloadjob.Folder{Path: sc.folderPath, Verified: sc.folder.Verified},
		Attempt: max(sc.rec.Attempt, job.attempt()), MaxAttempts: sc.a.Retry.MaxAttempts,
		LastFailure: sc.rec.lastFailure(),
	}
	if sc.problem != nil {
		o.Problem = downloadjob.Problem{Reason: sc.problem.Reason, Message: sc.problem.Message}
	}
	sc.setBackoff(&o)
	changed := sc.rec.Fingerprint != "" && sc.fingerprint != "" && sc.rec.Fingerprint != sc.fingerprint
	o.RetryAllowed = changed || (!sc.rec.Rejected && len(sc.jobs) == 0)
	return o
}

func (sc *scope) setBackoff(o *downloadjob.Observation) {
	at := sc.rec.retryAt(sc.a.Retry)
	now := sc.a.now()
	o.BackoffElapsed = !now.Before(at)
	o.RetryIn = ""
	if !o.BackoffElapsed {
		o.RetryIn = at.Sub(now).Round(time.Second).String()
	}
}

func (sc *scope) jobName() string { return localmodel.DownloadJobName(sc.a.NodeName, sc.info()) }

// observedJob is the Job the machine looks at, or none.
type observedJob struct{ *batchv1.Job }

func (j observedJob) live() bool { return j.Job != nil && !localmodel.JobFinished(j.Job) }

func (j observedJob) attempt() int {
	if j.Job == nil {
		return 0
	}
	return localmodel.AttemptOfJob(j.Labels)
}

// currentJob picks the live Job if there is one (there is never more than
// one), else the newest finished one.
func currentJob(jobs []batchv1.Job) observedJob {
	sorted := append([]batchv1.Job(nil), jobs...)
	sort.Slice(sorted, func(i, j int) bool {
		a, b := sorted[i].CreationTimestamp, sorted[j].CreationTimestamp
		return b.Before(&a) || (a.Equal(&b) && sorted[i].Name < sorted[j].Name)
	})
	for i := range sorted {
		if !localmodel.JobFinished(&sorted[i]) {
			return observedJob{&sorted[i]}
		}
	}
	if len(sorted) > 0 {
		return observedJob{&sorted[0]}
	}
	return observedJob{}
}

func jobView(j observedJob, name string, pods []corev1.Pod) downloadjob.Job {
	if j.Job == nil {
		return downloadjob.Job{Name: name}
	}
	v := downloadjob.Job{Name: j.Name, Exists: true, Running: localmodel.JobRunning(j.Job),
		Succeeded: localmodel.JobSucceeded(j.Job), Attempt: j.attempt()}
	if !v.Running && !localmodel.JobFinished(j.Job) {
		v.PodWaiting = localmodel.PodWaiting(localmodel.PodsOfJob(j.Job, pods))
	}
	if c := localmodel.JobFailed(j.Job); c != nil {
		v.Failed, v.Reason, v.Message = true, c.Reason, c.Message
	}
	return v
}

// downloadStep runs the download state's step; its outcome goes back into
// the observation.
func (sc *scope) downloadStep(ctx context.Context, s downloadjob.State, o downloadjob.Observation) downloadjob.Observation {
	switch s {
	case downloadjob.Pending:
		return sc.ensureJob(ctx, o)
	case downloadjob.Verifying:
		return sc.verify(ctx, o)
	case downloadjob.WaitingToRetry, downloadjob.Failed:
		return sc.noteFailure(s, o)
	case downloadjob.Downloaded:
		if _, now := sc.download.enteredNow(s); now {
			sc.rec.newRound()
		}
	case downloadjob.Cancelled:
		sc.deleteJobs(ctx, sc.download.spans)
		o.Job = downloadjob.Job{Name: o.Job.Name}
	}
	return o
}

// ensureJob makes one live download Job exist: it adopts a live one, or
// replaces a finished predecessor with the next attempt.
func (sc *scope) ensureJob(ctx context.Context, o downloadjob.Observation) downloadjob.Observation {
	if trigger, now := sc.download.enteredNow(downloadjob.Pending); (now && trigger != downloadjob.BackoffElapsed) || sc.freshDownload {
		sc.rec.newRound()
	}
	if sc.problem != nil || o.Job.Live() {
		return o
	}
	attempt := sc.rec.Attempt + 1
	if err := sc.buildDesired(ctx, attempt, tracing.FormatTraceParent(sc.download.episode.Context)); err != nil || sc.problem != nil {
		sc.recordErr(err)
		return o
	}
	end := sc.download.spans.Start("Step EnsureDownloadJob", attribute.String("k8s.job.name", sc.desired.Name), attribute.Int("fsmserve.attempt", attempt))
	job, created, err := localmodel.EnsureDownloadJob(ctx, sc.a.Client, sc.a.Fresh, sc.desired, localmodel.DownloadJobSelector(sc.a.NodeName, sc.entry))
	end(err, attribute.Bool("fsmserve.created", created))
	switch {
	case err == nil:
		sc.changed = sc.changed || created
		if created {
			sc.rec.Attempt = attempt
		}
		sc.rec.Attempt = max(sc.rec.Attempt, localmodel.AttemptOfJob(job.Labels))
		o.Job, o.Attempt = jobView(observedJob{job}, job.Name, sc.jobPods), sc.rec.Attempt
		if !o.Job.Live() {
			sc.requeue(time.Second) // the name is still held by a Job being deleted
		}
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err):
		o.Problem = downloadjob.Problem{Reason: ReasonJobRejected,
			Message: fmt.Sprintf("the API server rejected download Job %s: %v; fix the LocalModelNode entry or the localModel configuration", sc.desired.Name, err)}
	default:
		sc.recordErr(err)
	}
	return o
}

// noteFailure records a failed attempt when it happens, and wakes the model
// when its backoff ends.
func (sc *scope) noteFailure(s downloadjob.State, o downloadjob.Observation) downloadjob.Observation {
	if trigger, now := sc.download.enteredNow(s); now {
		sc.rec.Attempt = max(sc.rec.Attempt, o.Attempt)
		sc.rec.failed(sc.a.now(), downloadjob.LastFailure(o), sc.fingerprint, trigger == downloadjob.JobRejected)
		o.LastFailure = sc.rec.lastFailure()
	}
	if s == downloadjob.WaitingToRetry {
		sc.setBackoff(&o)
		sc.a.wake.at(Request{Model: sc.key}, sc.rec.retryAt(sc.a.Retry))
	}
	return o
}
