package inferenceservice

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// blockedEnvVar may not be set by users: it would let a manifest load Python
// code from anywhere into the model server.
const blockedEnvVar = "PYTHONPATH"

// predictorFields are the ways to set a predictor, in KServe's order.
const predictorFields = "a framework (sklearn, xgboost, tensorflow, pytorch, triton, onnx, huggingface, pmml, lightgbm, paddle), model, or containers with a kserve-container"

// validateBlockedEnv rejects PYTHONPATH in every container of the component:
// containers, init containers, the framework container, art's container
// and, for a multi-node predictor, the worker's containers.
func validateBlockedEnv(c *component) field.ErrorList {
	errs := blockedEnvIn(c.pod.Containers, c.path.Child("containers"))
	errs = append(errs, blockedEnvIn(c.pod.InitContainers, c.path.Child("initContainers"))...)
	for _, impl := range c.impls {
		if impl.field != v1beta1.FieldContainers {
			errs = append(errs, blockedEnvInContainer(impl.container, impl.path)...)
		}
	}
	if c.predictor != nil && c.predictor.WorkerSpec != nil {
		worker := c.path.Child("workerSpec")
		errs = append(errs, blockedEnvIn(c.predictor.WorkerSpec.Containers, worker.Child("containers"))...)
		errs = append(errs, blockedEnvIn(c.predictor.WorkerSpec.InitContainers, worker.Child("initContainers"))...)
	}
	return errs
}

func blockedEnvIn(containers []corev1.Container, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range containers {
		errs = append(errs, blockedEnvInContainer(&containers[i], path.Index(i))...)
	}
	return errs
}

func blockedEnvInContainer(c *corev1.Container, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, env := range c.Env {
		if env.Name == blockedEnvVar {
			errs = append(errs, field.Forbidden(path.Child("env").Index(j).Child("name"), fmt.Sprintf(
				"setting %s is not allowed for security reasons; remove it and install the code into the image instead", blockedEnvVar)))
		}
	}
	return errs
}

// validateExactlyOne reports whether the component has exactly one
// implementation, adding the error that says which to keep when it does not.
func validateExactlyOne(c *component, errs *field.ErrorList) bool {
	if len(c.impls) == 1 {
		return true
	}
	choices := map[v1beta1.ComponentType]string{
		v1beta1.PredictorComponent:   predictorFields,
		v1beta1.TransformerComponent: "containers (a transformer is a custom container)",
		v1beta1.ExplainerComponent:   "art or containers",
	}[c.kind]
	if len(c.impls) == 0 {
		*errs = append(*errs, field.Required(c.path, fmt.Sprintf("exactly one of %s must be set; none is", choices)))
		return false
	}
	set := make([]string, len(c.impls))
	for i, impl := range c.impls {
		set[i] = impl.path.String()
	}
	*errs = append(*errs, field.Invalid(c.path, strings.Join(set, ", "), fmt.Sprintf(
		"exactly one of %s must be set; %s are set: keep one and remove the others", choices, strings.Join(set, " and "))))
	return false
}

// validateImplementation checks the single implementation of a component.
func validateImplementation(c *component) field.ErrorList {
	impl := c.single()
	var errs field.ErrorList
	if impl.extension != nil {
		errs = append(errs, validateExtensionContainer(impl)...)
	}
	if c.kind == v1beta1.PredictorComponent {
		errs = append(errs, validateCollocatedTransformer(c.predictor, c.path)...)
		errs = append(errs, validateConfidential(impl)...)
		if impl.field == v1beta1.FieldContainers {
			errs = append(errs, validateCustomProtocol(c.pod.Containers, c.path.Child("containers"))...)
		}
	}
	if impl.field == "art" {
		errs = append(errs, validateExplainerStorageSpec(c)...)
	}
	return errs
}

// validateExtensionContainer checks a framework shorthand or model: the
// container is named by the runtime, and the model format and protocol must be
// ones a runtime can be chosen for.
func validateExtensionContainer(impl *implementation) field.ErrorList {
	var errs field.ErrorList
	if impl.container.Name != "" {
		errs = append(errs, field.Forbidden(impl.path.Child("name"),
			"the container name is set by the runtime (kserve-container); remove name, or use spec.predictor.containers for a custom container"))
	}
	if impl.model != nil && strings.TrimSpace(impl.model.ModelFormat.Name) == "" {
		errs = append(errs, field.Required(impl.path.Child("modelFormat", "name"),
			"name the model format (e.g. sklearn, onnx, huggingface) so a runtime can be chosen for it"))
	}
	if p := impl.extension.ProtocolVersion; p != nil && !knownProtocol(*p) {
		errs = append(errs, field.NotSupported(impl.path.Child("protocolVersion"), string(*p),
			[]string{string(v1beta1.ProtocolV1), string(v1beta1.ProtocolV2), string(v1beta1.ProtocolGRPCV1), string(v1beta1.ProtocolGRPCV2)}))
	}
	return errs
}

// validateCustomProtocol checks PROTOCOL of a custom predictor's serving
// containers: the first container (KServe's rule), kserve-container and a
// collocated transformer-container, which all answer inference calls.
func validateCustomProtocol(containers []corev1.Container, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range containers {
		c := &containers[i]
		if i != 0 && c.Name != v1beta1.PredictorContainerName && c.Name != v1beta1.TransformerContainerName {
			continue
		}
		for j, env := range c.Env {
			if env.Name == v1beta1.ProtocolEnvVar && env.Value != string(v1beta1.ProtocolV1) && env.Value != string(v1beta1.ProtocolV2) {
				errs = append(errs, field.Invalid(path.Index(i).Child("env").Index(j).Child("value"), env.Value,
					"a custom container speaks protocol v1 or v2; set PROTOCOL to v1 or v2"))
			}
		}
	}
	return errs
}

// storageSpecPrefixes are the stores a storage spec can describe.
var storageSpecPrefixes = []string{"s3://", "hdfs://", "webhdfs://"}

// validateExplainerStorageSpec checks art's storage spec: the store must be
// one the storage-config secret can describe.
func validateExplainerStorageSpec(c *component) field.ErrorList {
	if c.explainer == nil || c.explainer.ART == nil || c.explainer.ART.Storage == nil {
		return nil
	}
	art := c.explainer.ART
	path := c.path.Child("art")
	if art.StorageURI != "" {
		if !hasAnyPrefix(art.StorageURI, storageSpecPrefixes) {
			return field.ErrorList{field.Invalid(path.Child("storageUri"), art.StorageURI,
				"with a storage spec the URI must start with one of "+strings.Join(storageSpecPrefixes, ", ")+"; change the URI or remove storage")}
		}
		return nil
	}
	if params := art.Storage.Parameters; params != nil {
		if t, ok := (*params)["type"]; ok && !hasAnyPrefix(t+"://", storageSpecPrefixes) {
			return field.ErrorList{field.NotSupported(path.Child("storage", "parameters").Key("type"), t, []string{"s3", "hdfs", "webhdfs"})}
		}
	}
	return nil
}

// validateExtension checks the scaling and logging settings every component has.
func validateExtension(c *component, mode config.DeploymentMode) field.ErrorList {
	ext, path := c.ext, c.path
	var errs field.ErrorList
	if cc := ext.ContainerConcurrency; cc != nil && *cc < 0 {
		errs = append(errs, field.Invalid(path.Child("containerConcurrency"), *cc,
			"must be 0 (no limit) or more"))
	}
	minReplicas := int32(1)
	if ext.MinReplicas != nil {
		minReplicas = *ext.MinReplicas
	}
	if minReplicas < 0 {
		errs = append(errs, field.Invalid(path.Child("minReplicas"), minReplicas,
			"must be 0 or more; 0 allows scaling to zero where the autoscaler supports it"))
	}
	if ext.MaxReplicas < 0 {
		errs = append(errs, field.Invalid(path.Child("maxReplicas"), ext.MaxReplicas,
			"must be 0 (no limit) or more"))
	}
	if minReplicas >= 0 && ext.MaxReplicas > 0 && minReplicas > ext.MaxReplicas {
		errs = append(errs, field.Invalid(path.Child("minReplicas"), minReplicas, fmt.Sprintf(
			"cannot be greater than maxReplicas (%d); lower minReplicas or raise maxReplicas", ext.MaxReplicas)))
	}
	errs = append(errs, validateLogger(ext.Logger, path.Child("logger"))...)
	errs = append(errs, validateKnativeOnlyFields(c, mode)...)
	return errs
}

func validateLogger(l *v1beta1.LoggerSpec, path *field.Path) field.ErrorList {
	if l == nil {
		return nil
	}
	var errs field.ErrorList
	switch l.Mode {
	case "", v1beta1.LogAll, v1beta1.LogRequest, v1beta1.LogResponse:
	default:
		errs = append(errs, field.NotSupported(path.Child("mode"), string(l.Mode),
			[]string{string(v1beta1.LogAll), string(v1beta1.LogRequest), string(v1beta1.LogResponse)}))
	}
	if s := l.Storage; s != nil {
		storage := path.Child("storage")
		if s.Path == nil {
			errs = append(errs, field.Required(storage.Child("path"), "logger storage needs the path where records are written"))
		}
		if s.Parameters == nil {
			errs = append(errs, field.Required(storage.Child("parameters"), "logger storage needs parameters (e.g. type: s3, bucket)"))
		}
		if s.StorageKey == nil {
			errs = append(errs, field.Required(storage.Child("key"), "logger storage needs the key of the storage-config secret entry that holds the credentials"))
		}
	}
	return errs
}

func knownProtocol(p v1beta1.InferenceServiceProtocol) bool {
	switch p {
	case v1beta1.ProtocolV1, v1beta1.ProtocolV2, v1beta1.ProtocolGRPCV1, v1beta1.ProtocolGRPCV2:
		return true
	}
	return false
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
