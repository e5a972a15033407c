package pod

import (
	"encoding/json"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// agentRequest says which of the agent's roles the pod's annotations ask for.
type agentRequest struct {
	logger, puller, batcher bool
}

// requestedAgent is false when no role is asked for or the agent is already
// there (a reinvocation).
func requestedAgent(pod *corev1.Pod) (agentRequest, bool) {
	has := func(key string) bool { _, ok := pod.Annotations[key]; return ok }
	r := agentRequest{
		logger:  has(v1beta1.LoggerInternalAnnotation),
		puller:  has(v1beta1.AgentInternalAnnotation),
		batcher: has(v1beta1.BatcherInternalAnnotation),
	}
	if !r.logger && !r.puller && !r.batcher {
		return r, false
	}
	return r, podspec.Container(pod.Spec.Containers, agentContainerName) == nil
}

// injectAgent adds the agent sidecar that sits in front of the model server
// (port 9081) to log payloads, batch requests or pull models.
func injectAgent(pod *corev1.Pod, in *Inputs) error {
	req, ok := requestedAgent(pod)
	if !ok {
		return nil
	}
	keys := []string{config.KeyAgent, config.KeyCredentials}
	if req.logger {
		keys = append(keys, config.KeyLogger)
	}
	if req.batcher {
		keys = append(keys, config.KeyBatcher)
	}
	if err := in.needKeys(keys...); err != nil {
		return err
	}
	if req.puller {
		if err := checkPullerAnnotations(pod.Annotations); err != nil {
			return err
		}
	}
	logger := resolveLogger(&in.Config.Logger, in.InferenceService)
	agent := newAgentContainer(pod, &in.Config.Agent, agentArgs(pod, in, req, logger))
	if req.logger && logger.caBundle != "" {
		mountLoggerCABundle(pod, &agent, logger.caBundle)
	}
	if err := in.StorageCredentials.Apply(&in.Config.Credentials, &agent, &pod.Spec.Volumes); err != nil {
		return err
	}
	if req.logger && logger.storage != nil {
		if err := in.LoggerCredentials.Apply(&in.Config.Credentials, &agent, &pod.Spec.Volumes); err != nil {
			return err
		}
	}
	if req.puller {
		mountPullerVolumes(pod, &agent)
	}
	pod.Spec.Containers = append(pod.Spec.Containers, agent)
	return nil
}

func agentArgs(pod *corev1.Pod, in *Inputs, req agentRequest, logger loggerSettings) []string {
	var args []string
	if req.puller {
		args = append(args, pullerArgs(pod.Annotations)...)
	}
	if req.batcher {
		args = append(args, batcherArgs(pod.Annotations, &in.Config.Batcher)...)
	}
	if req.logger {
		args = append(args, loggerArgs(pod, logger)...)
	}
	return append(args, "--component-port", componentPort(pod))
}

// componentPort is where the agent forwards requests: the transformer's
// first port when there is a transformer, else the model server's.
func componentPort(pod *corev1.Pod) string {
	name := v1beta1.PredictorContainerName
	if podspec.Container(pod.Spec.Containers, v1beta1.TransformerContainerName) != nil {
		name = v1beta1.TransformerContainerName
	}
	if c := podspec.Container(pod.Spec.Containers, name); c != nil && len(c.Ports) > 0 {
		return strconv.Itoa(int(c.Ports[0].ContainerPort))
	}
	return defaultComponentPort
}

func newAgentContainer(pod *corev1.Pod, cfg *config.AgentConfig, args []string) corev1.Container {
	env, probePath := agentEnv(pod)
	agent := corev1.Container{
		Name:      agentContainerName,
		Image:     orDefault(cfg.Image, config.DefaultAgentImage),
		Args:      args,
		Resources: cfg.Resources(),
		Ports:     []corev1.ContainerPort{{Name: agentPortName, ContainerPort: agentPort, Protocol: corev1.ProtocolTCP}},
		Env:       env,
		ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			HTTPHeaders: []corev1.HTTPHeader{{Name: "K-Network-Probe", Value: "queue"}},
			Port:        intstr.FromInt32(agentPort),
			Path:        probePath,
			Scheme:      corev1.URISchemeHTTP,
		}}},
	}
	if len(pod.Spec.Containers) > 0 {
		agent.SecurityContext = pod.Spec.Containers[0].SecurityContext.DeepCopy()
	}
	return agent
}

// agentEnv: under Knative the agent takes queue-proxy's environment and
// queue-proxy now sends to the agent's port; in Standard mode the agent
// probes the model server itself, so it gets the server's readiness probe.
func agentEnv(pod *corev1.Pod) ([]corev1.EnvVar, string) {
	if qp := podspec.Container(pod.Spec.Containers, queueProxyContainerName); qp != nil {
		env := make([]corev1.EnvVar, len(qp.Env))
		for i := range qp.Env {
			qp.Env[i].DeepCopyInto(&env[i])
			if qp.Env[i].Name == envUserPort {
				qp.Env[i].Value = strconv.Itoa(agentPort)
			}
		}
		return env, "/"
	}
	probe := userReadinessProbe(pod)
	if probe == nil || (probe.HTTPGet == nil && probe.TCPSocket == nil) {
		return nil, "/"
	}
	raw, err := json.Marshal(probe)
	if err != nil {
		return nil, "/"
	}
	path := "/"
	if probe.HTTPGet != nil && probe.HTTPGet.Path != "" {
		path = probe.HTTPGet.Path
	}
	return []corev1.EnvVar{{Name: envServingReadinessProbe, Value: string(raw)}}, path
}

func userReadinessProbe(pod *corev1.Pod) *corev1.Probe {
	if t := podspec.Container(pod.Spec.Containers, v1beta1.TransformerContainerName); t != nil {
		return t.ReadinessProbe
	}
	if len(pod.Spec.Containers) == 0 {
		return nil
	}
	return pod.Spec.Containers[0].ReadinessProbe
}

// mountLoggerCABundle mounts the logger's CA bundle ConfigMap; it is
// optional so that a missing bundle does not keep the pod from starting.
func mountLoggerCABundle(pod *corev1.Pod, agent *corev1.Container, configMap string) {
	optional := true
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: loggerCAVolumeName, VolumeSource: corev1.VolumeSource{
		ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: configMap}, Optional: &optional},
	}})
	podspec.AddMount(agent, corev1.VolumeMount{Name: loggerCAVolumeName, MountPath: loggerCAMountPath, ReadOnly: true})
}

func checkPullerAnnotations(a map[string]string) error {
	for _, key := range []string{v1beta1.AgentModelDirInternalAnnotation, v1beta1.AgentConfigVolumeNameInternalAnnotation} {
		if _, ok := a[key]; !ok {
			return fmt.Errorf("the model puller (annotation %q) needs annotation %q, which the controller writes with it; let the controller recreate the pod",
				v1beta1.AgentInternalAnnotation, key)
		}
	}
	return nil
}

// mountPullerVolumes: the puller downloads into model-dir, shared with the
// model server, and reads the model list from the model-config ConfigMap.
func mountPullerVolumes(pod *corev1.Pod, agent *corev1.Container) {
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: modelDirVolumeName,
		VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	modelDir := corev1.VolumeMount{Name: modelDirVolumeName, MountPath: v1beta1.DefaultModelMountPath}
	podspec.AddMount(agent, modelDir)
	if c := podspec.Container(pod.Spec.Containers, v1beta1.PredictorContainerName); c != nil {
		podspec.AddMount(c, modelDir)
	}
	podspec.AddVolume(&pod.Spec.Volumes, corev1.Volume{Name: modelConfigVolume, VolumeSource: corev1.VolumeSource{
		ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{
			Name: pod.Annotations[v1beta1.AgentConfigVolumeNameInternalAnnotation]}},
	}})
	podspec.AddMount(agent, corev1.VolumeMount{Name: modelConfigVolume, MountPath: agentModelConfigDir})
}
