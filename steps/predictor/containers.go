package predictor

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/steps/runtime"
)

// runtimeContainers assembles the predictor's containers from the runtime and
// the spec: the merged kserve-container, the merged transformer-container (a
// collocated transformer), then the runtime's other containers, then the
// spec's. Placeholders render before image tags are adjusted.
func runtimeContainers(isvc *v1beta1.InferenceService, rt *runtime.Runtime) ([]corev1.Container, error) {
	pred := &isvc.Spec.Predictor
	if len(rt.Spec.Containers) == 0 {
		return nil, fmt.Errorf("no container configuration found in selected serving runtime %s; add a container named %s to it", rt.Name, v1beta1.PredictorContainerName)
	}
	rtMain := findContainer(rt.Spec.Containers, v1beta1.PredictorContainerName)
	if rtMain == nil {
		return nil, fmt.Errorf("failed to find %s in ServingRuntime %s containers; name its serving container %s", v1beta1.PredictorContainerName, rt.Name, v1beta1.PredictorContainerName)
	}
	main, err := mergeContainer(*rtMain, pred.Model.Container)
	if err != nil {
		return nil, err
	}
	if main, err = renderPlaceholders(main, isvc.ObjectMeta); err != nil {
		return nil, fmt.Errorf("failed to replace placeholders in serving runtime %s: %w", rt.Name, err)
	}
	updateImageTag(&main, pred.Model.RuntimeVersion, serverType(rt.Name, rt.Annotations))
	out := []corev1.Container{main}
	if t, err := transformerContainer(isvc, rt); err != nil {
		return nil, err
	} else if t != nil {
		out = append(out, *t)
	}
	for _, c := range rt.Spec.Containers {
		if c.Name != v1beta1.PredictorContainerName && c.Name != v1beta1.TransformerContainerName {
			out = append(out, *c.DeepCopy())
		}
	}
	for _, c := range pred.Containers {
		if c.Name != v1beta1.PredictorContainerName && c.Name != v1beta1.TransformerContainerName {
			out = append(out, *c.DeepCopy())
		}
	}
	return out, nil
}

// transformerContainer merges a collocated transformer-container given by the
// runtime, the spec, or both.
func transformerContainer(isvc *v1beta1.InferenceService, rt *runtime.Runtime) (*corev1.Container, error) {
	fromRuntime := findContainer(rt.Spec.Containers, v1beta1.TransformerContainerName)
	fromSpec := findContainer(isvc.Spec.Predictor.Containers, v1beta1.TransformerContainerName)
	var merged corev1.Container
	switch {
	case fromRuntime == nil && fromSpec == nil:
		return nil, nil
	case fromRuntime == nil:
		merged = *fromSpec.DeepCopy()
	case fromSpec == nil:
		merged = *fromRuntime.DeepCopy()
	default:
		var err error
		if merged, err = mergeContainer(*fromRuntime, *fromSpec); err != nil {
			return nil, err
		}
	}
	out, err := renderPlaceholders(merged, isvc.ObjectMeta)
	if err != nil {
		return nil, fmt.Errorf("failed to replace placeholders in serving runtime %s: %w", rt.Name, err)
	}
	return &out, nil
}

// customContainers are the containers of a predictor that names its own: the
// serving one is called kserve-container when it has no name.
func customContainers(pred *v1beta1.PredictorSpec) []corev1.Container {
	out := make([]corev1.Container, len(pred.Containers))
	for i := range pred.Containers {
		out[i] = *pred.Containers[i].DeepCopy()
	}
	if len(out) > 0 && out[0].Name == "" {
		out[0].Name = v1beta1.PredictorContainerName
	}
	return out
}

// finishContainers applies KServe's container defaults: the
// INFERENCE_SERVICE_NAME env everywhere, termination message and pull policy,
// and a TCP readiness probe on the serving containers that have none.
func finishContainers(cs []corev1.Container, isvcName string) {
	for i := range cs {
		c := &cs[i]
		setEnv(c, "INFERENCE_SERVICE_NAME", isvcName)
		if c.TerminationMessagePath == "" {
			c.TerminationMessagePath = corev1.TerminationMessagePathDefault
		}
		if c.TerminationMessagePolicy == "" {
			c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
		}
		if c.ImagePullPolicy == "" {
			c.ImagePullPolicy = corev1.PullIfNotPresent
		}
		if c.ReadinessProbe == nil && (c.Name == v1beta1.PredictorContainerName || c.Name == v1beta1.TransformerContainerName) {
			c.ReadinessProbe = tcpProbe(containerPort(c))
		}
	}
}

func tcpProbe(port int32) *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler:   corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(port)}},
		TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3,
	}
}

// containerPort is the first declared port, or 8080 where model servers listen
// by convention.
func containerPort(c *corev1.Container) int32 {
	if len(c.Ports) > 0 {
		return c.Ports[0].ContainerPort
	}
	return 8080
}

func findContainer(cs []corev1.Container, name string) *corev1.Container {
	for i := range cs {
		if cs[i].Name == name {
			return &cs[i]
		}
	}
	return nil
}
