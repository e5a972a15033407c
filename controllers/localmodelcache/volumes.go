package localmodelcache

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// ensureVolumes creates the download volume of every node group in the job
// namespace and, unless volume management is disabled, the serving volume of
// every namespace whose InferenceServices use the cache, and deletes the
// volumes nothing needs any more. Volumes are created once and never
// updated, as in KServe: their specs are immutable once bound.
func (sc *scope) ensureVolumes(ctx context.Context) {
	want := sc.wantedVolumes()
	var firstErr error
	created := 0
	for _, v := range want {
		for _, obj := range []client.Object{v.PV, v.PVC} {
			made, err := sc.createIfAbsent(ctx, obj)
			firstErr = firstOf(firstErr, err)
			if made {
				created++
			}
		}
	}
	if created > 0 || firstErr != nil {
		end := sc.spans.Start("Step EnsureVolumes", attribute.Int("fsmserve.volumes.created", created))
		end(firstErr)
	}
	sc.recordErr(firstErr)
	sc.deleteVolumes(ctx, "Step DeleteUnusedVolumes", sc.unused(ctx, want))
}

// wantedVolumes lists the volumes the cache needs now.
func (sc *scope) wantedVolumes() []localmodel.Volume {
	var out []localmodel.Volume
	for _, g := range sc.groups {
		out = append(out, localmodel.DownloadVolume(sc.cache, g, sc.cfg.LocalModel.JobNamespace))
	}
	if sc.cfg.LocalModel.DisableVolumeManagement {
		return out
	}
	byName := map[string]*v1alpha1.LocalModelNodeGroup{}
	for _, g := range sc.groups {
		byName[g.Name] = g
	}
	for ns, groups := range sc.placement() {
		for _, name := range groups {
			if g := byName[name]; g != nil {
				out = append(out, localmodel.ServingVolume(sc.cache, g, ns))
			}
		}
	}
	return out
}

// createIfAbsent creates obj unless an object of its name exists (ours or
// not: a volume someone else made is left alone).
func (sc *scope) createIfAbsent(ctx context.Context, obj client.Object) (bool, error) {
	existing := obj.DeepCopyObject().(client.Object)
	err := sc.r.Client.Get(ctx, client.ObjectKeyFromObject(obj), existing)
	if err == nil {
		return false, nil
	}
	if !apierrors.IsNotFound(err) {
		return false, err
	}
	err = sc.r.Client.Create(ctx, obj)
	if apierrors.IsAlreadyExists(err) {
		return false, nil
	}
	if err == nil {
		sc.changed = true
	}
	return err == nil, err
}

// unused lists this cache's volumes that are not wanted: serving volumes of
// a namespace with no user of their node group any more, and download
// volumes of a node group the cache no longer names (or of a previous job
// namespace). With volume management disabled, serving volumes are left
// alone.
func (sc *scope) unused(ctx context.Context, want []localmodel.Volume) []client.Object {
	keep := map[client.ObjectKey]bool{}
	for _, v := range want {
		keep[client.ObjectKeyFromObject(v.PV)] = true
		keep[client.ObjectKeyFromObject(v.PVC)] = true
	}
	purpose := ""
	if sc.cfg.LocalModel.DisableVolumeManagement {
		purpose = localmodel.PurposeDownload
	}
	var out []client.Object
	for _, obj := range sc.listVolumes(ctx, purpose) {
		if !keep[client.ObjectKeyFromObject(obj)] {
			out = append(out, obj)
		}
	}
	return out
}

// listVolumes lists this cache's PersistentVolumes and claims with the given
// purpose (any when empty). Read errors are recorded.
func (sc *scope) listVolumes(ctx context.Context, purpose string) []client.Object {
	sel := client.MatchingLabelsSelector{Selector: localmodel.VolumeSelector(sc.cache.Ref, purpose)}
	pvs := &corev1.PersistentVolumeList{}
	pvcs := &corev1.PersistentVolumeClaimList{}
	if err := sc.r.Client.List(ctx, pvs, sel); err != nil {
		sc.recordErr(err)
		return nil
	}
	if err := sc.r.Client.List(ctx, pvcs, sel); err != nil {
		sc.recordErr(err)
		return nil
	}
	var out []client.Object
	for i := range pvcs.Items {
		out = append(out, &pvcs.Items[i])
	}
	for i := range pvs.Items {
		out = append(out, &pvs.Items[i])
	}
	return out
}

// deleteVolumes deletes objs (claims first, so a volume is released before it
// goes) unless they are already going.
func (sc *scope) deleteVolumes(ctx context.Context, span string, objs []client.Object) {
	var pending []client.Object
	for _, obj := range objs {
		if obj.GetDeletionTimestamp() == nil {
			pending = append(pending, obj)
		}
	}
	if len(pending) == 0 {
		return
	}
	end := sc.spans.Start(span, attribute.Int("fsmserve.volumes", len(pending)))
	var firstErr error
	for _, obj := range pending {
		uid := obj.GetUID()
		err := sc.r.Client.Delete(ctx, obj, client.Preconditions{UID: &uid})
		if err == nil {
			sc.changed = true
		}
		firstErr = firstOf(firstErr, client.IgnoreNotFound(err))
	}
	end(firstErr)
	sc.recordErr(firstErr)
}
