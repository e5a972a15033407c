package predictor

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// mergeContainer overlays the InferenceService's container on the runtime's
// with a strategic merge: the InferenceService's fields win, env is merged by
// name, resources per key; args are the runtime's followed by the
// InferenceService's.
func mergeContainer(runtime, isvc corev1.Container) (corev1.Container, error) {
	var out corev1.Container
	if err := strategicMerge(runtime, isvc, &out, corev1.Container{}); err != nil {
		return out, fmt.Errorf("merge container %q: %w", runtime.Name, err)
	}
	out.Args = append(append([]string(nil), runtime.Args...), isvc.Args...)
	if len(out.Args) == 0 {
		out.Args = nil
	}
	if out.Name == "" {
		out.Name = runtime.Name
	}
	return out, nil
}

// mergePodSpec overlays the predictor's pod-level fields on the runtime's
// scheduling and volume fields. Containers are assembled separately.
func mergePodSpec(runtime *v1alpha1.ServingRuntimePodSpec, isvc *v1beta1.PodSpec) (corev1.PodSpec, error) {
	base := corev1.PodSpec{}
	if runtime != nil {
		base = corev1.PodSpec{
			NodeSelector: runtime.NodeSelector, Affinity: runtime.Affinity, Tolerations: runtime.Tolerations,
			Volumes: runtime.Volumes, ImagePullSecrets: runtime.ImagePullSecrets, SchedulerName: runtime.SchedulerName,
			ResourceClaims: runtime.ResourceClaims,
		}
	}
	patch, err := toCorePodSpec(isvc)
	if err != nil {
		return corev1.PodSpec{}, err
	}
	patch.Containers, patch.InitContainers = nil, nil
	var out corev1.PodSpec
	if err := strategicMerge(base, patch, &out, corev1.PodSpec{}); err != nil {
		return out, fmt.Errorf("merge pod spec: %w", err)
	}
	out.InitContainers = append([]corev1.Container(nil), isvc.InitContainers...)
	return out, nil
}

// toCorePodSpec converts KServe's PodSpec (a corev1.PodSpec with optional
// containers, same JSON) into a corev1.PodSpec.
func toCorePodSpec(p *v1beta1.PodSpec) (corev1.PodSpec, error) {
	var out corev1.PodSpec
	raw, err := json.Marshal(p)
	if err != nil {
		return out, err
	}
	return out, json.Unmarshal(raw, &out)
}

func strategicMerge(base, patch, out, schema any) error {
	b, err := json.Marshal(base)
	if err != nil {
		return err
	}
	p, err := json.Marshal(patch)
	if err != nil {
		return err
	}
	merged, err := strategicpatch.StrategicMergePatch(b, p, schema)
	if err != nil {
		return err
	}
	return json.Unmarshal(merged, out)
}
