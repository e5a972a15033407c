package servingruntime

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/inferenceservice"
)

// validateWorkerSpec checks a multi-node runtime: it stays multi-node, its
// worker runs one container, parallelism comes from workerSpec rather than
// env, accelerators are known GPU types, and sizes are at least 1.
func validateWorkerSpec(spec, previous *v1alpha1.ServingRuntimeSpec, cfg *config.Config) field.ErrorList {
	worker := specPath.Child("workerSpec")
	if spec.WorkerSpec == nil {
		if previous != nil && previous.WorkerSpec != nil {
			return field.ErrorList{field.Forbidden(worker,
				"removing workerSpec where it already exists is not allowed: InferenceServices using this runtime expect workers; put workerSpec back, or create a new runtime without it")}
		}
		return nil
	}
	ws := spec.WorkerSpec
	extra, errs := gpuTypes(spec.Annotations)
	if n := len(ws.Containers); n > 1 {
		errs = append(errs, field.Invalid(worker.Child("containers"), n,
			"a worker runs one container; merge the others into it or remove them"))
	}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if c.Name != v1beta1.PredictorContainerName {
			continue
		}
		path := specPath.Child("containers").Index(i)
		errs = append(errs, parallelismEnv(c, path)...)
		errs = append(errs, unknownGPUs(c.Resources, cfg, extra, path.Child("resources"))...)
	}
	for i := range ws.Containers {
		errs = append(errs, unknownGPUs(ws.Containers[i].Resources, cfg, extra, worker.Child("containers").Index(i).Child("resources"))...)
	}
	for _, f := range []struct {
		name  string
		value *int
	}{{"pipelineParallelSize", ws.PipelineParallelSize}, {"tensorParallelSize", ws.TensorParallelSize}} {
		if f.value != nil && *f.value < 1 {
			errs = append(errs, field.Invalid(worker.Child(f.name), *f.value, "must be 1 or more"))
		}
	}
	return errs
}

func parallelismEnv(c *corev1.Container, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, env := range c.Env {
		switch env.Name {
		case inferenceservice.PipelineParallelSizeEnv:
			errs = append(errs, field.Forbidden(path.Child("env").Index(j).Child("name"),
				"setting PIPELINE_PARALLEL_SIZE in environment variables is not allowed: set spec.workerSpec.pipelineParallelSize instead"))
		case inferenceservice.TensorParallelSizeEnv:
			errs = append(errs, field.Forbidden(path.Child("env").Index(j).Child("name"),
				"setting TENSOR_PARALLEL_SIZE in environment variables is not allowed: set spec.workerSpec.tensorParallelSize instead"))
		}
	}
	return errs
}

// gpuTypes reads serving.kserve.io/gpu-resource-types from the runtime's
// pod annotations, where KServe reads it.
func gpuTypes(annotations map[string]string) ([]string, field.ErrorList) {
	raw := annotations[v1beta1.GPUResourceTypesAnnotation]
	extra, err := inferenceservice.ParseGPUResourceTypes(raw)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(specPath.Child("annotations").Key(v1beta1.GPUResourceTypesAnnotation), raw, err.Error())}
	}
	return extra, nil
}

func unknownGPUs(r corev1.ResourceRequirements, cfg *config.Config, extra []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, name := range inferenceservice.UnknownGPUResources(r, cfg.MultiNode, extra) {
		errs = append(errs, field.Invalid(path, string(name),
			string(name)+" is an unknown GPU resource type; list it in spec.annotations[serving.kserve.io/gpu-resource-types] (a JSON list) or in multiNode.customGPUResourceTypeList of inferenceservice-config"))
	}
	return errs
}

// validateBlockedEnv rejects PYTHONPATH in the runtime's and the worker's
// containers.
func validateBlockedEnv(spec *v1alpha1.ServingRuntimeSpec) field.ErrorList {
	errs := blockedEnvIn(spec.Containers, specPath.Child("containers"))
	if spec.WorkerSpec != nil {
		errs = append(errs, blockedEnvIn(spec.WorkerSpec.Containers, specPath.Child("workerSpec", "containers"))...)
	}
	return errs
}

func blockedEnvIn(containers []corev1.Container, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range containers {
		for j, env := range containers[i].Env {
			if env.Name == blockedEnvVar {
				errs = append(errs, field.Forbidden(path.Index(i).Child("env").Index(j).Child("name"),
					"setting PYTHONPATH is not allowed for security reasons; remove it and install the code into the image instead"))
			}
		}
	}
	return errs
}
