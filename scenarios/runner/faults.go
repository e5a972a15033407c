package runner

import (
	"context"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/internal/podfault"
)

// faultOnPod sets (fault != "") or clears (fault == "") the pod fault the
// nodes play, with its annotations. Only the pod's metadata changes: a
// ReplicaSet leaves a pod's added labels alone, and the node does the rest.
func faultOnPod(fault string, annotations map[string]string) func(context.Context, *run, client.Object) error {
	return func(ctx context.Context, r *run, obj client.Object) error {
		return setPodFault(ctx, r.h.Client, obj.(*corev1.Pod), fault, annotations)
	}
}

// faultOnDeploymentPods sets or clears a fault on every pod of the
// Deployment (by its selector).
func faultOnDeploymentPods(fault string) func(context.Context, *run, client.Object) error {
	return func(ctx context.Context, r *run, obj client.Object) error {
		pods, err := deploymentPods(ctx, r.h.Client, obj.(*appsv1.Deployment))
		if err != nil {
			return err
		}
		for i := range pods {
			if err := setPodFault(ctx, r.h.Client, &pods[i], fault, nil); err != nil {
				return err
			}
		}
		return nil
	}
}

func deploymentPods(ctx context.Context, c client.Client, d *appsv1.Deployment) ([]corev1.Pod, error) {
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	list := &corev1.PodList{}
	if err := c.List(ctx, list, client.InNamespace(d.Namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return nil, err
	}
	return list.Items, nil
}

func setPodFault(ctx context.Context, c client.Client, p *corev1.Pod, fault string, annotations map[string]string) error {
	if fault == "" && p.Labels[podfault.Label] == "" {
		return nil
	}
	label := any(fault)
	if fault == "" {
		label = nil
	}
	meta := map[string]any{"labels": map[string]any{podfault.Label: label}}
	if len(annotations) > 0 {
		meta["annotations"] = annotations
	}
	patch, err := json.Marshal(map[string]any{"metadata": meta})
	if err != nil {
		return err
	}
	return c.Patch(ctx, p, client.RawPatch(types.MergePatchType, patch), client.FieldOwner(FieldOwner))
}
