package pod

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// selectStorageContainer picks the ClusterStorageContainer whose container
// customises the storage initializer. A named one must be usable for the URI,
// with no fallback: the user asked for it. Otherwise the first enabled
// init-container one that supports the URI wins, in list order; none is fine.
func selectStorageContainer(all []v1alpha1.ClusterStorageContainer, uri, name string) (*v1alpha1.StorageContainerSpec, error) {
	if name != "" {
		return namedStorageContainer(all, uri, name)
	}
	for i := range all {
		c := &all[i]
		if c.IsDisabled() || !runsAsInitContainer(c) {
			continue
		}
		ok, err := c.Spec.SupportsURI(uri)
		if err != nil {
			return nil, fmt.Errorf("ClusterStorageContainer %q: %w; fix the regular expression", c.Name, err)
		}
		if ok {
			return &c.Spec, nil
		}
	}
	return nil, nil
}

func namedStorageContainer(all []v1alpha1.ClusterStorageContainer, uri, name string) (*v1alpha1.StorageContainerSpec, error) {
	var c *v1alpha1.ClusterStorageContainer
	for i := range all {
		if all[i].Name == name {
			c = &all[i]
			break
		}
	}
	switch {
	case c == nil:
		return nil, fmt.Errorf("storageContainerName names ClusterStorageContainer %q, which does not exist; create it or correct the name", name)
	case c.IsDisabled():
		return nil, fmt.Errorf("ClusterStorageContainer %q (storageContainerName) is disabled; enable it or name another", name)
	case !runsAsInitContainer(c):
		return nil, fmt.Errorf("ClusterStorageContainer %q (storageContainerName) has workloadType %q, but a predictor needs %q; name a container of that type",
			name, c.Spec.WorkloadType, v1alpha1.InitContainer)
	}
	ok, err := c.Spec.SupportsURI(uri)
	if err != nil {
		return nil, fmt.Errorf("ClusterStorageContainer %q: %w; fix the regular expression", name, err)
	}
	if !ok {
		return nil, fmt.Errorf("ClusterStorageContainer %q (storageContainerName) does not support %q; add a matching prefix or regex to its supportedUriFormats, or name another",
			name, uri)
	}
	return &c.Spec, nil
}

// runsAsInitContainer: an empty workload type is the API default, initContainer.
func runsAsInitContainer(c *v1alpha1.ClusterStorageContainer) bool {
	return c.Spec.WorkloadType == "" || c.Spec.WorkloadType == v1alpha1.InitContainer
}

// mergeStorageContainer lays the storage container's fields over the init
// container with a strategic merge (env and mounts merge by name). The name
// stays storage-initializer whatever the overlay says, because that name is
// how a reinvocation recognises the container it already injected.
func mergeStorageContainer(init *corev1.Container, overlay corev1.Container) error {
	base, err := json.Marshal(init)
	if err != nil {
		return err
	}
	patch, err := json.Marshal(overlay)
	if err != nil {
		return err
	}
	merged, err := strategicpatch.StrategicMergePatch(base, patch, corev1.Container{})
	if err != nil {
		return fmt.Errorf("merge the ClusterStorageContainer's container into the storage initializer: %w", err)
	}
	var out corev1.Container
	if err := json.Unmarshal(merged, &out); err != nil {
		return fmt.Errorf("merge the ClusterStorageContainer's container into the storage initializer: %w", err)
	}
	keepOverlayEnvSource(out.Env, overlay.Env)
	out.Name = v1beta1.StorageInitializerContainerName
	*init = out
	return nil
}

// keepOverlayEnvSource resolves a variable the merge left with both a value
// and a valueFrom (the API server rejects that) in the overlay's favour.
func keepOverlayEnvSource(merged, overlay []corev1.EnvVar) {
	byName := make(map[string]corev1.EnvVar, len(overlay))
	for _, e := range overlay {
		byName[e.Name] = e
	}
	for i := range merged {
		e := &merged[i]
		o, ok := byName[e.Name]
		if !ok || e.Value == "" || e.ValueFrom == nil {
			continue
		}
		if o.ValueFrom != nil {
			e.Value = ""
		} else {
			e.ValueFrom = nil
		}
	}
}
