package runner

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/internal/kubesim"
)

// worldChange is a status change a missing controller would make to objects
// of one kind.
type worldChange struct {
	kind      string
	newObject func() client.Object
	newList   func() client.ObjectList
	mutate    func(client.Object)
}

// world plays a Deployment, Job or Pod controller: it waits (up to within)
// for the selected objects to exist, then updates their status.
func (r *run) world(ctx context.Context, step Step) error {
	w := step.World
	sel, _ := worldSelection(w)
	change := newWorldChange(w, metav1.NewTime(r.h.now()))
	ns := r.namespaceFor(step, "")
	if r.h.Host.Live {
		return r.worldLive(ctx, step, change, sel, ns)
	}
	names, err := r.waitForTargets(ctx, change, sel, ns, r.h.within(w.Within))
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := updateStatus(ctx, r.h.Client, change, client.ObjectKey{Namespace: ns, Name: name}); err != nil {
			return fmt.Errorf("updating the status of %s %s/%s: %w", change.kind, ns, name, err)
		}
	}
	return nil
}

func newWorldChange(w *World, now metav1.Time) worldChange {
	deployment := func(set func(*appsv1.Deployment)) worldChange {
		return worldChange{kind: "Deployment",
			newObject: func() client.Object { return &appsv1.Deployment{} },
			newList:   func() client.ObjectList { return &appsv1.DeploymentList{} },
			mutate:    func(o client.Object) { set(o.(*appsv1.Deployment)) }}
	}
	job := func(set func(*batchv1.Job)) worldChange {
		return worldChange{kind: "Job",
			newObject: func() client.Object { return &batchv1.Job{} },
			newList:   func() client.ObjectList { return &batchv1.JobList{} },
			mutate:    func(o client.Object) { set(o.(*batchv1.Job)) }}
	}
	switch {
	case w.DeploymentAvailable != nil:
		return deployment(func(d *appsv1.Deployment) { kubesim.Available(d, w.DeploymentAvailable.Replicas, now) })
	case w.DeploymentProgressing != nil:
		return deployment(func(d *appsv1.Deployment) { kubesim.Progressing(d, w.DeploymentProgressing.Replicas, now) })
	case w.DeploymentUnavailable != nil:
		return deployment(func(d *appsv1.Deployment) { kubesim.Unavailable(d, w.DeploymentUnavailable.Replicas, now) })
	case w.DeploymentFailed != nil:
		return deployment(func(d *appsv1.Deployment) {
			kubesim.Failed(d, kubesim.Failure{Reason: w.DeploymentFailed.Reason, Message: w.DeploymentFailed.Message, ReplicaFailure: w.DeploymentFailed.ReplicaFailure}, now)
		})
	case w.JobSucceeded != nil:
		return job(func(j *batchv1.Job) { kubesim.JobSucceeded(j, now) })
	case w.JobFailed != nil:
		return job(func(j *batchv1.Job) {
			kubesim.JobFailed(j, kubesim.JobFailure{Reason: w.JobFailed.Reason, Message: w.JobFailed.Message}, now)
		})
	case w.JobRunning != nil:
		return job(func(j *batchv1.Job) { kubesim.JobRunning(j, now) })
	}
	pod := func(set func(*corev1.Pod)) worldChange {
		return worldChange{kind: "Pod",
			newObject: func() client.Object { return &corev1.Pod{} },
			newList:   func() client.ObjectList { return &corev1.PodList{} },
			mutate:    func(o client.Object) { set(o.(*corev1.Pod)) }}
	}
	if s := w.PodsStuck; s != nil {
		if s.Reason == "" || s.Reason == corev1.PodReasonUnschedulable {
			return pod(func(p *corev1.Pod) { kubesim.PodUnschedulable(p, s.Message, now) })
		}
		return pod(func(p *corev1.Pod) { kubesim.PodContainersWaiting(p, s.Reason, s.Message, now) })
	}
	return pod(func(p *corev1.Pod) { kubesim.PodReady(p, now) })
}

// waitForTargets polls until the selection matches at least one object and
// returns the names it matches.
func (r *run) waitForTargets(ctx context.Context, change worldChange, sel Selection, ns string, within time.Duration) ([]string, error) {
	var names []string
	timedOut, err := pollUntil(ctx, within, func() (bool, error) {
		var err error
		names, err = selectNames(ctx, r.h.Client, change, sel, ns)
		return len(names) > 0, err
	})
	switch {
	case err != nil:
		return nil, err
	case timedOut && sel.Name != "":
		return nil, fmt.Errorf("no %s %q in namespace %s after %s", change.kind, sel.Name, ns, within)
	case timedOut:
		return nil, fmt.Errorf("no %s in namespace %s matches %q after %s", change.kind, ns, sel.Selector, within)
	}
	return names, nil
}

func selectNames(ctx context.Context, c client.Client, change worldChange, sel Selection, ns string) ([]string, error) {
	if sel.Name != "" {
		err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: sel.Name}, change.newObject())
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return []string{sel.Name}, err
	}
	selector, err := labels.Parse(sel.Selector)
	if err != nil {
		return nil, err
	}
	list := change.newList()
	if err := c.List(ctx, list, client.InNamespace(ns), client.MatchingLabelsSelector{Selector: selector}); err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(items))
	for _, item := range items {
		if o, ok := item.(client.Object); ok {
			names = append(names, o.GetName())
		}
	}
	return names, nil
}

// updateStatus rereads the object on conflict, so the status is computed from
// the generation the server holds now.
func updateStatus(ctx context.Context, c client.Client, change worldChange, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj := change.newObject()
		if err := c.Get(ctx, key, obj); err != nil {
			return err
		}
		change.mutate(obj)
		return c.Status().Update(ctx, obj)
	})
}

// now is the controllers' time: the fake clock when there is one.
func (h *Harness) now() time.Time {
	if h.Clock != nil {
		return h.Clock.Now()
	}
	return time.Now()
}
