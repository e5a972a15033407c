package inferenceservice

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// Environment variables that multi-node serving derives from workerSpec.
const (
	PipelineParallelSizeEnv = "PIPELINE_PARALLEL_SIZE"
	TensorParallelSizeEnv   = "TENSOR_PARALLEL_SIZE"
)

// validateMultiNode checks predictor.workerSpec when the installation runs
// multi-node predictors (otherwise the whole field is rejected elsewhere):
// one worker container, parallelism from workerSpec rather than env, known
// GPU types, a pvc:// or oci:// model and no autoscaling.
func validateMultiNode(isvc *v1beta1.InferenceService, cfg *config.Config, caps Capabilities) field.ErrorList {
	p := &isvc.Spec.Predictor
	if p.WorkerSpec == nil || !caps.MultiNode {
		return nil
	}
	path := field.NewPath("spec", "predictor")
	worker := path.Child("workerSpec")
	extra, gpuErrs := gpuTypesAnnotation(isvc.Annotations)
	errs := gpuErrs
	if n := len(p.WorkerSpec.Containers); n > 1 {
		errs = append(errs, field.Invalid(worker.Child("containers"), n,
			"a worker runs one container; merge the others into it or remove them"))
	}
	if p.Model != nil {
		errs = append(errs, validateMultiNodeModel(isvc, cfg, extra, path.Child("model"))...)
	}
	for _, f := range []struct {
		name  string
		value *int
	}{{"pipelineParallelSize", p.WorkerSpec.PipelineParallelSize}, {"tensorParallelSize", p.WorkerSpec.TensorParallelSize}} {
		if f.value != nil && *f.value < 1 {
			errs = append(errs, field.Invalid(worker.Child(f.name), *f.value, "must be 1 or more"))
		}
	}
	for i := range p.WorkerSpec.Containers {
		c := worker.Child("containers").Index(i)
		errs = append(errs, unknownGPUErrors(p.WorkerSpec.Containers[i].Resources, cfg, extra, c.Child("resources"))...)
	}
	return errs
}

func validateMultiNodeModel(isvc *v1beta1.InferenceService, cfg *config.Config, extra []string, model *field.Path) field.ErrorList {
	m := isvc.Spec.Predictor.Model
	var errs field.ErrorList
	for j, env := range m.Env {
		switch env.Name {
		case PipelineParallelSizeEnv:
			errs = append(errs, field.Forbidden(model.Child("env").Index(j).Child("name"),
				"set spec.predictor.workerSpec.pipelineParallelSize instead; the environment is derived from it"))
		case TensorParallelSizeEnv:
			errs = append(errs, field.Forbidden(model.Child("env").Index(j).Child("name"),
				"set spec.predictor.workerSpec.tensorParallelSize instead; the environment is derived from it"))
		}
	}
	errs = append(errs, unknownGPUErrors(m.Resources, cfg, extra, model.Child("resources"))...)
	switch {
	case m.StorageURI == nil:
		errs = append(errs, field.Required(model.Child("storageUri"),
			"multi-node serving loads the model from a volume every node mounts: set storageUri to a pvc:// or oci:// URI"))
	case !strings.HasPrefix(*m.StorageURI, "pvc://") && !strings.HasPrefix(*m.StorageURI, "oci://"):
		errs = append(errs, field.Invalid(model.Child("storageUri"), *m.StorageURI,
			"multi-node serving supports pvc:// and oci:// URIs only; copy the model to a PVC or an OCI image"))
	}
	if class := isvc.Annotations[v1beta1.AutoscalerClassAnnotation]; class != string(v1beta1.AutoscalerClassNone) {
		errs = append(errs, field.Invalid(annotationsPath.Key(v1beta1.AutoscalerClassAnnotation), class,
			"multi-node predictors are not autoscaled: set the annotation serving.kserve.io/autoscalerClass: none"))
	}
	return errs
}

// gpuTypesAnnotation parses serving.kserve.io/gpu-resource-types.
func gpuTypesAnnotation(annotations map[string]string) ([]string, field.ErrorList) {
	raw := annotations[v1beta1.GPUResourceTypesAnnotation]
	extra, err := ParseGPUResourceTypes(raw)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(annotationsPath.Key(v1beta1.GPUResourceTypesAnnotation), raw, err.Error())}
	}
	return extra, nil
}

func unknownGPUErrors(r corev1.ResourceRequirements, cfg *config.Config, extra []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, name := range UnknownGPUResources(r, cfg.MultiNode, extra) {
		errs = append(errs, field.Invalid(path, string(name), fmt.Sprintf(
			"%s is not a known GPU resource type; list it in the annotation %s (a JSON list) or in multiNode.customGPUResourceTypeList of inferenceservice-config",
			name, v1beta1.GPUResourceTypesAnnotation)))
	}
	return errs
}
