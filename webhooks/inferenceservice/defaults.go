package inferenceservice

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// Default applies KServe's InferenceService defaults in place: the
// deployment-mode annotation, the framework shorthand rewritten as
// predictor.model, the modelFormat annotation, container names, default
// resources and automountServiceAccountToken. It is pure and idempotent:
// defaulting a defaulted object changes nothing. A nil cfg means the
// built-in configuration.
//
// Components that do not have exactly one implementation are left alone so
// the validator can name what is wrong with them as the user wrote it.
// Canary predictors are not defaulted, as in KServe.
func Default(isvc *v1beta1.InferenceService, cfg *config.Config) {
	if cfg == nil {
		cfg = config.Default()
	}
	defaultDeploymentMode(isvc, cfg)
	mode := cfg.Deploy.ModeFor(isvc.Status.DeploymentMode, isvc.Annotations)
	defaults := cfg.InferenceService.Resources()
	if mode != config.ModelMesh {
		defaultPredictor(isvc, defaults)
	}
	if t := isvc.Spec.Transformer; t != nil && len(t.Containers) > 0 {
		defaultFirstContainer(t.Containers, defaults)
	}
	if e := isvc.Spec.Explainer; e != nil {
		defaultExplainer(e, cfg, defaults)
	}
	if !cfg.Security.AutoMountServiceAccountToken {
		disableTokenAutomount(isvc)
	}
}

// defaultDeploymentMode rewrites the legacy mode names and, when the
// annotation is absent, adds it for the modes KServe adds it for (Standard
// and ModelMesh; a Knative default leaves it absent). A mode already
// recorded in status is preferred to the configured default, so that an
// update which drops the annotation does not turn into a mode change.
func defaultDeploymentMode(isvc *v1beta1.InferenceService, cfg *config.Config) {
	key := v1beta1.DeploymentModeAnnotation
	if raw, ok := isvc.Annotations[key]; ok {
		if mode, known := config.NormalizeDeploymentMode(raw); known {
			isvc.Annotations[key] = string(mode)
		}
		return
	}
	mode, known := config.NormalizeDeploymentMode(isvc.Status.DeploymentMode)
	if !known {
		mode = cfg.Deploy.DefaultDeploymentMode
	}
	if mode == config.Standard || mode == config.ModelMesh {
		setAnnotation(isvc, key, string(mode))
	}
}

// defaultPredictor converts a framework shorthand into predictor.model
// (protocol defaults included), records the model format in the modelFormat
// annotation and names and sizes a custom serving container.
func defaultPredictor(isvc *v1beta1.InferenceService, defaults corev1.ResourceRequirements) {
	p := &isvc.Spec.Predictor
	if len(p.GetImplementations()) != 1 && !p.ReappliedShorthand() {
		return
	}
	p.ConvertShorthand()
	if p.Model != nil && p.Model.ModelFormat.Name != "" {
		if _, set := isvc.Annotations[v1beta1.ModelFormatAnnotation]; !set {
			setAnnotation(isvc, v1beta1.ModelFormatAnnotation, p.Model.ModelFormat.Name)
		}
	}
	impl := p.GetImplementation()
	if impl.Field != v1beta1.FieldContainers {
		return
	}
	first := &p.Containers[0]
	if (len(p.Containers) == 1 || first.Name == "") && !hasContainer(p.Containers[1:], v1beta1.PredictorContainerName) {
		first.Name = v1beta1.PredictorContainerName
	}
	serving := first
	if c := p.GetImplementation(); c != nil && c.Container != nil {
		serving = c.Container
	}
	fillResources(&serving.Resources, defaults)
}

// defaultExplainer names and sizes the explainer's container: art's inline
// container, or the first custom container.
func defaultExplainer(e *v1beta1.ExplainerSpec, cfg *config.Config, defaults corev1.ResourceRequirements) {
	switch {
	case e.ART != nil && len(e.Containers) == 0:
		e.ART.Name = v1beta1.PredictorContainerName
		if e.ART.RuntimeVersion == nil && cfg.Explainers.ART.DefaultImageVersion != "" {
			version := cfg.Explainers.ART.DefaultImageVersion
			e.ART.RuntimeVersion = &version
		}
		fillResources(&e.ART.Resources, defaults)
	case e.ART == nil && len(e.Containers) > 0:
		defaultFirstContainer(e.Containers, defaults)
	}
}

// defaultFirstContainer names a custom transformer's or explainer's first
// container kserve-container, unless another container already has that
// name, and fills in its resources.
func defaultFirstContainer(containers []corev1.Container, defaults corev1.ResourceRequirements) {
	if !hasContainer(containers[1:], v1beta1.PredictorContainerName) {
		containers[0].Name = v1beta1.PredictorContainerName
	}
	fillResources(&containers[0].Resources, defaults)
}

// disableTokenAutomount turns token automounting off where the user left it
// unset: serving containers rarely need the API server.
func disableTokenAutomount(isvc *v1beta1.InferenceService) {
	pods := []*v1beta1.PodSpec{&isvc.Spec.Predictor.PodSpec}
	if isvc.Spec.Transformer != nil {
		pods = append(pods, &isvc.Spec.Transformer.PodSpec)
	}
	if isvc.Spec.Explainer != nil {
		pods = append(pods, &isvc.Spec.Explainer.PodSpec)
	}
	for _, pod := range pods {
		if pod.AutomountServiceAccountToken == nil {
			off := false
			pod.AutomountServiceAccountToken = &off
		}
	}
}

// fillResources sets each cpu and memory request and limit the container
// leaves unset to the configured default. A default request above the
// user's own limit is capped at that limit, and a default limit below the
// user's own request is raised to it, so defaulting never produces a pod the
// API server rejects.
func fillResources(r *corev1.ResourceRequirements, defaults corev1.ResourceRequirements) {
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if def, ok := defaults.Requests[name]; ok {
			if _, set := r.Requests[name]; !set {
				if limit, has := r.Limits[name]; has && limit.Cmp(def) < 0 {
					def = limit
				}
				r.Requests = put(r.Requests, name, def)
			}
		}
		if def, ok := defaults.Limits[name]; ok {
			if _, set := r.Limits[name]; !set {
				if request, has := r.Requests[name]; has && request.Cmp(def) > 0 {
					def = request
				}
				r.Limits = put(r.Limits, name, def)
			}
		}
	}
}

func put(list corev1.ResourceList, name corev1.ResourceName, q resource.Quantity) corev1.ResourceList {
	if list == nil {
		list = corev1.ResourceList{}
	}
	list[name] = q.DeepCopy()
	return list
}

func hasContainer(containers []corev1.Container, name string) bool {
	for i := range containers {
		if containers[i].Name == name {
			return true
		}
	}
	return false
}

func setAnnotation(isvc *v1beta1.InferenceService, key, value string) {
	if isvc.Annotations == nil {
		isvc.Annotations = map[string]string{}
	}
	isvc.Annotations[key] = value
}
