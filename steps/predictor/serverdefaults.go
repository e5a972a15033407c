package predictor

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// ServerTypeAnnotation on a runtime names the model server it runs.
const ServerTypeAnnotation = "serving.kserve.io/server-type"

var serverTypeByRuntimeName = map[string]string{
	"kserve-mlserver":           "mlserver",
	"kserve-torchserve":         "torchserve",
	"kserve-tritonserver":       "tritonserver",
	"kserve-tensorflow-serving": "tensorflow-serving",
	"kserve-huggingfaceserver":  "huggingfaceserver",
	"kserve-vllmserver":         "vllmserver",
}

// serverType reads the runtime's server type from its annotation, else from
// KServe's standard runtime names.
func serverType(runtimeName string, annotations map[string]string) string {
	if t, ok := annotations[ServerTypeAnnotation]; ok && t != "" {
		return t
	}
	return serverTypeByRuntimeName[runtimeName]
}

// applyServerDefaults sets what MLServer, Triton and TorchServe need that a
// KServe user does not write: the protocol, model env or args, and the labels
// the runtime templates read ({{.Labels.modelClass}}).
func applyServerDefaults(isvc *v1beta1.InferenceService, server string) {
	m := isvc.Spec.Predictor.Model
	if m == nil {
		return
	}
	hasStorage := m.StorageURI != nil || m.Storage != nil
	switch server {
	case "mlserver":
		defaultProtocol(m, v1beta1.ProtocolV2)
		if hasStorage {
			setEnvIfAbsent(&m.Container, "MLSERVER_MODEL_NAME", isvc.Name)
			setEnvIfAbsent(&m.Container, "MLSERVER_MODEL_URI", v1beta1.DefaultModelMountPath)
		} else {
			setEnvIfAbsent(&m.Container, "MLSERVER_LOAD_MODELS_AT_STARTUP", "false")
		}
		setLabel(isvc, "modelClass", mlserverModelClass(m.ModelFormat.Name))
	case "tritonserver":
		defaultProtocol(m, v1beta1.ProtocolV2)
		if !hasStorage {
			m.Args = append(m.Args, "--model-control-mode=explicit")
		}
	case "torchserve":
		defaultProtocol(m, v1beta1.ProtocolV1)
		envelope := "kserve"
		if p := *m.ProtocolVersion; p == v1beta1.ProtocolV2 || p == v1beta1.ProtocolGRPCV2 {
			envelope = "kservev2"
		}
		setLabel(isvc, "serviceEnvelope", envelope)
		m.Env = append(m.Env, corev1.EnvVar{Name: "PROTOCOL_VERSION", Value: string(*m.ProtocolVersion)})
	}
}

func mlserverModelClass(format string) string {
	switch format {
	case "xgboost":
		return "mlserver_xgboost.XGBoostModel"
	case "lightgbm":
		return "mlserver_lightgbm.LightGBMModel"
	case "mlflow":
		return "mlserver_mlflow.MLflowRuntime"
	}
	return "mlserver_sklearn.SKLearnModel"
}

func defaultProtocol(m *v1beta1.ModelSpec, p v1beta1.InferenceServiceProtocol) {
	if m.ProtocolVersion == nil {
		m.ProtocolVersion = &p
	}
}

func setEnvIfAbsent(c *corev1.Container, name, value string) {
	for _, e := range c.Env {
		if e.Name == name {
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: name, Value: value})
}

// setEnv sets name to value, replacing an existing entry in place.
func setEnv(c *corev1.Container, name, value string) {
	for i := range c.Env {
		if c.Env[i].Name == name {
			c.Env[i].Value, c.Env[i].ValueFrom = value, nil
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: name, Value: value})
}

func setLabel(isvc *v1beta1.InferenceService, k, v string) {
	if isvc.Labels == nil {
		isvc.Labels = map[string]string{}
	}
	isvc.Labels[k] = v
}
