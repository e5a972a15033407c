package pod

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// injectGKEAccelerator schedules a GPU pod onto the GKE node pool of the
// accelerator the serving.kserve.io/gke-accelerator annotation names.
func injectGKEAccelerator(pod *corev1.Pod, _ *Inputs) error {
	accelerator, ok := pod.Annotations[v1beta1.GKEAcceleratorAnnotation]
	if !ok || !requestsNvidiaGPU(pod) {
		return nil
	}
	if pod.Spec.NodeSelector == nil {
		pod.Spec.NodeSelector = map[string]string{}
	}
	pod.Spec.NodeSelector[gkeAcceleratorNodeSelector] = accelerator
	return nil
}

func requestsNvidiaGPU(pod *corev1.Pod) bool {
	for _, c := range pod.Spec.Containers {
		if _, ok := c.Resources.Limits[nvidiaGPUResource]; ok {
			return true
		}
	}
	return false
}
