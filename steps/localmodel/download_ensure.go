package localmodel

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// JobSucceeded reports whether the Job completed.
func JobSucceeded(j *batchv1.Job) bool { return jobCondition(j, batchv1.JobComplete) != nil }

// JobFailed returns the Job's Failed condition, or nil.
func JobFailed(j *batchv1.Job) *batchv1.JobCondition { return jobCondition(j, batchv1.JobFailed) }

// JobFinished reports whether the Job completed or failed for good.
func JobFinished(j *batchv1.Job) bool { return JobSucceeded(j) || JobFailed(j) != nil }

// JobRunning reports whether the Job's pod is ready.
func JobRunning(j *batchv1.Job) bool { return j.Status.Ready != nil && *j.Status.Ready > 0 }

func jobCondition(j *batchv1.Job, t batchv1.JobConditionType) *batchv1.JobCondition {
	for i := range j.Status.Conditions {
		if c := &j.Status.Conditions[i]; c.Type == t && c.Status == corev1.ConditionTrue {
			return c
		}
	}
	return nil
}

// EnsureDownloadJob makes the desired download Job the one live Job of its
// (node, model) and returns the Job that is live now, and whether this call
// created it. It never makes a second live Job:
//
//   - it reads the Jobs with a fresh (uncached) list and adopts a live one
//     (found by its labels: after a restart, or made by another replica);
//   - it deletes finished predecessors, and Jobs left by an earlier owner
//     of the same name, with a UID precondition, so a stale view can never
//     delete a successor another agent just created;
//   - it creates under the deterministic name, so of two agents that race
//     past the list only one succeeds; the other adopts the winner's Job.
//
// A Job still holding the name (being deleted) is returned as it is: the
// caller waits for the next reconcile.
func EnsureDownloadJob(ctx context.Context, c client.Client, fresh client.Reader, desired *batchv1.Job, sel labels.Selector) (*batchv1.Job, bool, error) {
	list := &batchv1.JobList{}
	if err := fresh.List(ctx, list, client.InNamespace(desired.Namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return nil, false, err
	}
	owner := controllerUID(desired)
	for i := range list.Items {
		if j := &list.Items[i]; !JobFinished(j) && controllerUID(j) == owner {
			return j, false, nil
		}
	}
	for i := range list.Items {
		if err := deleteJob(ctx, c, &list.Items[i]); err != nil {
			return nil, false, err
		}
	}
	err := c.Create(ctx, desired)
	if err == nil {
		return desired, true, nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return nil, false, err
	}
	existing := &batchv1.Job{}
	if err := fresh.Get(ctx, client.ObjectKeyFromObject(desired), existing); err != nil {
		return nil, false, fmt.Errorf("download Job %s exists but cannot be read: %w", desired.Name, err)
	}
	return existing, false, nil
}

// DeleteDownloadJobs deletes every Job sel selects in namespace and reports
// how many it deleted and how many are still there (being deleted).
func DeleteDownloadJobs(ctx context.Context, c client.Client, fresh client.Reader, namespace string, sel labels.Selector) (deleted, remaining int, err error) {
	list := &batchv1.JobList{}
	if err := fresh.List(ctx, list, client.InNamespace(namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return 0, 0, err
	}
	for i := range list.Items {
		j := &list.Items[i]
		if j.DeletionTimestamp != nil {
			remaining++
			continue
		}
		if err := deleteJob(ctx, c, j); err != nil {
			return deleted, remaining, err
		}
		deleted++
	}
	return deleted, remaining, nil
}

// DeleteJob deletes exactly this Job (by UID) and its pods in the background.
func DeleteJob(ctx context.Context, c client.Client, j *batchv1.Job) error {
	return deleteJob(ctx, c, j)
}

// deleteJob deletes exactly this Job (by UID) and its pods in the background;
// a Job already gone or replaced is not an error.
func deleteJob(ctx context.Context, c client.Client, j *batchv1.Job) error {
	if j.DeletionTimestamp != nil {
		return nil
	}
	uid := j.UID
	err := c.Delete(ctx, j, client.PropagationPolicy("Background"), client.Preconditions{UID: &uid})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// controllerUID is the UID of the object's controller, "" when it has none.
func controllerUID(obj metav1.Object) types.UID {
	for _, ref := range obj.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			return ref.UID
		}
	}
	return ""
}

// ControlledBy reports whether the Job's controller is the object with uid.
func ControlledBy(j *batchv1.Job, uid types.UID) bool { return controllerUID(j) == uid }
