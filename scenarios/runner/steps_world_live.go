package runner

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/internal/podfault"
	"github.com/fsmserve/fsmserve/machines/workload"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// On a live host the cluster's own controllers own the statuses a world
// change would write: writing over them would be undone at once, and would
// test the runner instead of the cluster. So a change the cluster makes by
// itself (a Deployment becoming available on nodes that run its pods) is
// waited for, and one it has no real means to make is a skipped step.

// liveMean is how a live host brings a world change about: what it does to
// the cluster first (nothing, for a change the cluster makes by itself),
// and the test that the cluster has made it.
type liveMean struct {
	// faults is true when the change needs nodes that play pod faults.
	faults bool
	act    func(ctx context.Context, r *run, obj client.Object) error
	holds  func(client.Object) bool
}

// liveMeanOf returns how this host brings the change about, or why it
// cannot.
func liveMeanOf(w *World) (liveMean, string) {
	switch {
	case w.DeploymentAvailable != nil:
		return liveMean{act: faultOnDeploymentPods(""), holds: deploymentAvailable}, ""
	case w.DeploymentUnavailable != nil:
		return liveMean{faults: true, act: faultOnDeploymentPods(podfault.NotReady), holds: func(o client.Object) bool {
			d := o.(*appsv1.Deployment)
			return d.Status.ObservedGeneration >= d.Generation && d.Status.AvailableReplicas < workload.DesiredReplicas(d)
		}}, ""
	case w.DeploymentFailed != nil:
		return liveMean{}, "fsmserve sets the predictor's progressDeadlineSeconds (600, as KServe does) and puts it back when changed, so a real deadline takes ten minutes"
	case w.PodsReady != nil:
		return liveMean{act: faultOnPod("", nil), holds: func(o client.Object) bool { return podReady(o.(*corev1.Pod)) }}, ""
	case w.PodsStuck != nil:
		return podsStuckMean(w.PodsStuck)
	case w.JobSucceeded != nil:
		return liveMean{holds: func(o client.Object) bool { return localmodel.JobSucceeded(o.(*batchv1.Job)) }}, ""
	case w.JobRunning != nil:
		return liveMean{holds: func(o client.Object) bool {
			j := o.(*batchv1.Job)
			return j.Status.Active > 0 || localmodel.JobSucceeded(j)
		}}, ""
	}
	return liveMean{}, "the cluster's own controllers own this status, and the host has no real means to bring it about"
}

// podsStuckMean: the scheduler says Unschedulable by itself (for a pod that
// asks for more than any node has); the kubelet's waiting reasons are
// played by the nodes' faults.
func podsStuckMean(s *PodsStuck) (liveMean, string) {
	reason := orDefault(s.Reason, corev1.PodReasonUnschedulable)
	fault := map[string]string{"ImagePullBackOff": podfault.ImagePull, "ErrImagePull": podfault.ImagePull, "CrashLoopBackOff": podfault.CrashLoop}[reason]
	// The test is fsmserve's own reading of a pod that cannot run.
	holds := func(o client.Object) bool {
		return workload.PodTroubleOf([]corev1.Pod{*o.(*corev1.Pod)}).Reason == reason
	}
	switch {
	case reason == corev1.PodReasonUnschedulable:
		return liveMean{holds: holds}, ""
	case fault == "":
		return liveMean{}, fmt.Sprintf("the nodes play no pod fault with the reason %s", reason)
	}
	annotations := map[string]string{}
	if s.Message != "" {
		annotations[podfault.MessageAnnotation] = s.Message
	}
	return liveMean{faults: true, act: faultOnPod(fault, annotations), holds: holds}, ""
}

func deploymentAvailable(o client.Object) bool {
	d := o.(*appsv1.Deployment)
	return workload.RolledOut(d) && d.Status.AvailableReplicas >= workload.DesiredReplicas(d)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// worldLive brings the change about by real means and waits until the
// cluster has made it, or skips the rest of the story when this host has no
// real means to.
func (r *run) worldLive(ctx context.Context, step Step, change worldChange, sel Selection, ns string) error {
	name := worldActions(step.World)[0]
	mean, why := liveMeanOf(step.World)
	switch {
	case why != "":
		return &skipRest{reason: why}
	case mean.faults && !r.h.Host.PodFaults:
		return &skipRest{reason: "this cluster's nodes play no pod faults (the dev cluster's kwok nodes do), so there is no real means to bring it about"}
	}
	within := r.h.within(step.World.Within)
	names, err := r.waitForTargets(ctx, change, sel, ns, within)
	if err != nil {
		return err
	}
	if err := r.actOn(ctx, name, mean, change, ns, names); err != nil {
		return err
	}
	var pending []string
	timedOut, err := pollUntil(ctx, within, func() (bool, error) {
		var err error
		pending, err = notYet(ctx, r.h.Client, change, ns, names, mean.holds)
		return len(pending) == 0, err
	})
	if timedOut {
		return fmt.Errorf("%s: the cluster did not make it so within %s for %s %v", name, within, change.kind, pending)
	}
	return err
}

// actOn runs the mean's action on each target.
func (r *run) actOn(ctx context.Context, name string, mean liveMean, change worldChange, ns string, names []string) error {
	if mean.act == nil {
		return nil
	}
	for _, n := range names {
		obj := change.newObject()
		err := r.h.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: n}, obj)
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return err
		case obj.GetDeletionTimestamp() != nil:
			continue // on its way out: its successor is what the story is about
		}
		if err := mean.act(ctx, r, obj); err != nil {
			return fmt.Errorf("%s on %s %s: %w", name, change.kind, n, err)
		}
	}
	return nil
}

// notYet lists the named objects for which holds is still false.
func notYet(ctx context.Context, c client.Client, change worldChange, ns string, names []string, holds func(client.Object) bool) ([]string, error) {
	var pending []string
	for _, n := range names {
		obj := change.newObject()
		err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: n}, obj)
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return nil, err
		case obj.GetDeletionTimestamp() != nil:
			continue
		}
		if !holds(obj) {
			pending = append(pending, n)
		}
	}
	return pending, nil
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
