package pod

import (
	"encoding/json"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// setIstioCNIUser lets the storage initializer reach the network under the
// Istio CNI plugin, which lets only the sidecar's user bypass the traffic
// redirection while the sidecar is not running yet (during init). The
// serving.kserve.io/storage-initializer-uid annotation sets the user
// explicitly; otherwise, with REDIRECT interception and no istio-init
// container (that is, CNI mode), the sidecar's user is copied.
func setIstioCNIUser(pod *corev1.Pod, _ *Inputs) error {
	init := podspec.Container(pod.Spec.InitContainers, v1beta1.StorageInitializerContainerName)
	if init == nil {
		return nil
	}
	if value, ok := pod.Annotations[v1beta1.StorageInitializerUIDAnnotation]; ok {
		uid, err := strconv.ParseInt(value, 10, 64)
		if err != nil || uid < 0 {
			return fmt.Errorf("annotation %q is %q, which is not a user ID; set it to a whole number such as \"1337\"",
				v1beta1.StorageInitializerUIDAnnotation, value)
		}
		setRunAsUser(init, uid)
		return nil
	}
	if podspec.Container(pod.Spec.InitContainers, istioInitContainerName) != nil ||
		pod.Annotations[istioInterceptionModeKey] != istioInterceptRedirect {
		return nil
	}
	sidecar := istioSidecar(pod)
	if sidecar == nil {
		return nil
	}
	uid := defaultIstioSidecarUID
	if sc := sidecar.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = *sc.RunAsUser
	}
	setRunAsUser(init, uid)
	return nil
}

// istioSidecar finds the sidecar Istio names first in its status annotation.
// A status that does not parse means we cannot tell, so nothing is changed.
func istioSidecar(pod *corev1.Pod) *corev1.Container {
	raw, ok := pod.Annotations[istioSidecarStatusKey]
	if !ok {
		return nil
	}
	var status struct {
		Containers []string `json:"containers"`
	}
	if err := json.Unmarshal([]byte(raw), &status); err != nil || len(status.Containers) == 0 {
		return nil
	}
	return podspec.Container(pod.Spec.Containers, status.Containers[0])
}

func setRunAsUser(c *corev1.Container, uid int64) {
	if c.SecurityContext == nil {
		c.SecurityContext = &corev1.SecurityContext{}
	}
	c.SecurityContext.RunAsUser = &uid
}
