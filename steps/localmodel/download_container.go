package localmodel

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// downloadContainer picks the download container as KServe does: the first
// enabled ClusterStorageContainer (by name) whose workloadType is
// localModelDownloadJob and that supports the URI, else
// kserve-localmodel-download running the configured job image.
func downloadContainer(uri, defaultImage string, containers []v1alpha1.ClusterStorageContainer) (corev1.Container, *JobProblem) {
	sorted := append([]v1alpha1.ClusterStorageContainer(nil), containers...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for i := range sorted {
		sc := &sorted[i]
		if sc.IsDisabled() || sc.Spec.WorkloadType != v1alpha1.LocalModelDownloadJob {
			continue
		}
		ok, err := sc.Spec.SupportsURI(uri)
		if err != nil {
			return corev1.Container{}, &JobProblem{Reason: ReasonInvalidStorageContainer,
				Message: fmt.Sprintf("ClusterStorageContainer %s: %v; fix or disable it", sc.Name, err)}
		}
		if ok {
			return *sc.Spec.Container.DeepCopy(), nil
		}
	}
	return corev1.Container{
		Name:                     DownloadContainerName,
		Image:                    defaultImage,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
	}, nil
}
