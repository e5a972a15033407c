package runner

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/machines/workload"
)

// On a live host the cluster's own controllers own the statuses a world
// change would write: writing over them would be undone at once, and would
// test the runner instead of the cluster. So a change the cluster makes by
// itself (a Deployment becoming available on nodes that run its pods) is
// waited for, and one it has no real means to make is a skipped step.

// liveWaits are the world changes a live cluster makes by itself, each with
// the test that it has.
var liveWaits = map[string]func(client.Object) bool{
	"deploymentAvailable": func(o client.Object) bool {
		d := o.(*appsv1.Deployment)
		return workload.RolledOut(d) && d.Status.AvailableReplicas >= workload.DesiredReplicas(d)
	},
	"jobSucceeded": func(o client.Object) bool { return jobCondition(o.(*batchv1.Job), batchv1.JobComplete) },
	"jobRunning": func(o client.Object) bool {
		j := o.(*batchv1.Job)
		return j.Status.Active > 0 || jobCondition(j, batchv1.JobComplete)
	},
	"podsReady": func(o client.Object) bool { return podReady(o.(*corev1.Pod)) },
}

// worldLive waits until the cluster has made the change itself, or skips
// the rest of the story when it has no real means to.
func (r *run) worldLive(ctx context.Context, step Step, change worldChange, sel Selection, ns string) error {
	name := worldActions(step.World)[0]
	holds, ok := liveWaits[name]
	if !ok {
		return &skipRest{reason: fmt.Sprintf("%s: on a live host the cluster's own controllers own this status, and the host has no real means to bring it about", name)}
	}
	within := r.h.within(step.World.Within)
	names, err := r.waitForTargets(ctx, change, sel, ns, within)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(within)
	for {
		pending, err := notYet(ctx, r.h.Client, change, ns, names, holds)
		if err != nil {
			return err
		}
		if len(pending) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: the cluster did not make it so within %s for %s %v", name, within, change.kind, pending)
		}
		if err := sleep(ctx, pollInterval); err != nil {
			return err
		}
	}
}

// notYet lists the named objects for which holds is still false.
func notYet(ctx context.Context, c client.Client, change worldChange, ns string, names []string, holds func(client.Object) bool) ([]string, error) {
	var pending []string
	for _, n := range names {
		obj := change.newObject()
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: n}, obj); err != nil {
			return nil, err
		}
		if !holds(obj) {
			pending = append(pending, n)
		}
	}
	return pending, nil
}

func jobCondition(j *batchv1.Job, t batchv1.JobConditionType) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == t && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}
