package localmodelcache

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/steps/localmodel"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// ensureVolumes creates the download volume of every node group in the job
// namespace and, unless volume management is disabled, the serving volume of
// every namespace whose InferenceServices use the cache, and deletes the
// volumes nothing needs any more. Volumes are created once and never
// updated, as in KServe: their specs are immutable once bound.
func (w *world) ensureVolumes(ctx context.Context) outcome.Outcome {
	want := w.wantedVolumes()
	var firstErr error
	created := 0
	for _, v := range want {
		for _, obj := range []client.Object{v.PV, v.PVC} {
			made, err := w.createIfAbsent(ctx, obj)
			firstErr = firstOf(firstErr, err)
			if made {
				created++
			}
		}
	}
	if created > 0 || firstErr != nil {
		end := w.spans.Start("Step EnsureVolumes", attribute.Int("fsmserve.volumes.created", created))
		end(firstErr)
	}
	out := outcome.Error(firstErr).Then(outcome.OK(created > 0))
	unused, err := w.unused(ctx, want)
	if err != nil {
		return out.Then(outcome.Error(err))
	}
	return out.Then(w.deleteVolumes(ctx, "Step DeleteUnusedVolumes", unused))
}

// wantedVolumes lists the volumes the cache needs now.
func (w *world) wantedVolumes() []localmodel.Volume {
	var out []localmodel.Volume
	for _, g := range w.groups {
		out = append(out, localmodel.DownloadVolume(w.cache, g, w.cfg.LocalModel.JobNamespace))
	}
	if w.cfg.LocalModel.DisableVolumeManagement {
		return out
	}
	byName := map[string]*v1alpha1.LocalModelNodeGroup{}
	for _, g := range w.groups {
		byName[g.Name] = g
	}
	for ns, groups := range w.placement() {
		for _, name := range groups {
			if g := byName[name]; g != nil {
				out = append(out, localmodel.ServingVolume(w.cache, g, ns))
			}
		}
	}
	return out
}

// createIfAbsent creates obj unless an object of its name exists (ours or
// not: a volume someone else made is left alone).
func (w *world) createIfAbsent(ctx context.Context, obj client.Object) (bool, error) {
	existing := obj.DeepCopyObject().(client.Object)
	err := w.client.Get(ctx, client.ObjectKeyFromObject(obj), existing)
	if err == nil {
		return false, nil
	}
	if !apierrors.IsNotFound(err) {
		return false, err
	}
	err = w.client.Create(ctx, obj)
	if apierrors.IsAlreadyExists(err) {
		return false, nil
	}
	return err == nil, err
}

// unused lists this cache's volumes that are not wanted: serving volumes of
// a namespace with no user of their node group any more, and download
// volumes of a node group the cache no longer names (or of a previous job
// namespace). With volume management disabled, serving volumes are left
// alone.
func (w *world) unused(ctx context.Context, want []localmodel.Volume) ([]client.Object, error) {
	keep := map[client.ObjectKey]bool{}
	for _, v := range want {
		keep[client.ObjectKeyFromObject(v.PV)] = true
		keep[client.ObjectKeyFromObject(v.PVC)] = true
	}
	purpose := ""
	if w.cfg.LocalModel.DisableVolumeManagement {
		purpose = localmodel.PurposeDownload
	}
	vols, err := w.listVolumes(ctx, purpose)
	var out []client.Object
	for _, obj := range vols {
		if !keep[client.ObjectKeyFromObject(obj)] {
			out = append(out, obj)
		}
	}
	return out, err
}

// listVolumes lists this cache's PersistentVolumes and claims with the given
// purpose (any when empty).
func (w *world) listVolumes(ctx context.Context, purpose string) ([]client.Object, error) {
	sel := client.MatchingLabelsSelector{Selector: localmodel.VolumeSelector(w.cache.Ref, purpose)}
	pvs := &corev1.PersistentVolumeList{}
	pvcs := &corev1.PersistentVolumeClaimList{}
	if err := w.client.List(ctx, pvs, sel); err != nil {
		return nil, err
	}
	if err := w.client.List(ctx, pvcs, sel); err != nil {
		return nil, err
	}
	var out []client.Object
	for i := range pvcs.Items {
		out = append(out, &pvcs.Items[i])
	}
	for i := range pvs.Items {
		out = append(out, &pvs.Items[i])
	}
	return out, nil
}

// deleteVolumes deletes objs (claims first, so a volume is released before it
// goes) unless they are already going.
func (w *world) deleteVolumes(ctx context.Context, span string, objs []client.Object) outcome.Outcome {
	var pending []client.Object
	for _, obj := range objs {
		if obj.GetDeletionTimestamp() == nil {
			pending = append(pending, obj)
		}
	}
	if len(pending) == 0 {
		return outcome.OK(false)
	}
	end := w.spans.Start(span, attribute.Int("fsmserve.volumes", len(pending)))
	var firstErr error
	deleted := false
	for _, obj := range pending {
		uid := obj.GetUID()
		err := w.client.Delete(ctx, obj, client.Preconditions{UID: &uid})
		deleted = deleted || err == nil
		firstErr = firstOf(firstErr, client.IgnoreNotFound(err))
	}
	end(firstErr)
	return outcome.Error(firstErr).Then(outcome.OK(deleted))
}
