package inferenceservice

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

var (
	annotationsPath = field.NewPath("metadata", "annotations")
	modePath        = annotationsPath.Key(v1beta1.DeploymentModeAnnotation)
)

// validateDeploymentMode rejects a deployment-mode annotation nobody
// recognises (KServe would quietly fall back to the default) and a mode the
// installation does not run.
func validateDeploymentMode(isvc *v1beta1.InferenceService, mode config.DeploymentMode, caps Capabilities) field.ErrorList {
	raw, annotated := isvc.Annotations[v1beta1.DeploymentModeAnnotation]
	if _, known := config.NormalizeDeploymentMode(raw); annotated && !known {
		return field.ErrorList{field.NotSupported(modePath, raw, modeNames(caps))}
	}
	if caps.SupportsMode(mode) {
		return nil
	}
	detail := fmt.Sprintf("deployment mode %s is not available in this installation, which runs %s; set the annotation %s: %s",
		mode, caps.modeList(), v1beta1.DeploymentModeAnnotation, caps.preferredMode())
	switch {
	case isvc.Status.DeploymentMode != "":
		detail = fmt.Sprintf("deployment mode %s (recorded in status.deploymentMode, which never changes) is not available in this installation, which runs %s; delete the InferenceService and create it again with the annotation %s: %s",
			mode, caps.modeList(), v1beta1.DeploymentModeAnnotation, caps.preferredMode())
	case !annotated:
		detail = fmt.Sprintf("the configured default deployment mode %s (inferenceservice-config key deploy) is not available in this installation, which runs %s; set the annotation %s: %s",
			mode, caps.modeList(), v1beta1.DeploymentModeAnnotation, caps.preferredMode())
	}
	return field.ErrorList{field.Invalid(modePath, string(mode), detail)}
}

// modeNames lists the annotation values to suggest, supported modes first.
func modeNames(caps Capabilities) []string {
	names := make([]string, 0, len(caps.Modes))
	for _, m := range caps.Modes {
		names = append(names, string(m))
	}
	return names
}

// validateAutoscalerClasses checks serving.kserve.io/autoscalerClass on the
// InferenceService and on each component, where the controller also reads it.
func validateAutoscalerClasses(isvc *v1beta1.InferenceService, caps Capabilities) field.ErrorList {
	errs := validateAutoscalerClass(isvc.Annotations, annotationsPath, caps)
	for _, c := range components(isvc) {
		errs = append(errs, validateAutoscalerClass(c.ext.Annotations, c.path.Child("annotations"), caps)...)
	}
	return errs
}

func validateAutoscalerClass(annotations map[string]string, path *field.Path, caps Capabilities) field.ErrorList {
	value, ok := annotations[v1beta1.AutoscalerClassAnnotation]
	if !ok {
		return nil
	}
	p := path.Key(v1beta1.AutoscalerClassAnnotation)
	switch v1beta1.AutoscalerClass(value) {
	case v1beta1.AutoscalerClassHPA, v1beta1.AutoscalerClassExternal, v1beta1.AutoscalerClassNone:
		return nil
	case v1beta1.AutoscalerClassKeda:
		if caps.KEDA {
			return nil
		}
		return field.ErrorList{field.Invalid(p, value,
			"KEDA autoscaling is not available in this installation; use "+caps.autoscalerClasses())}
	}
	return field.ErrorList{field.Invalid(p, value, "is not an autoscaler class; use "+caps.autoscalerClasses()+
		" (Knative's kpa is chosen with the Knative deployment mode, not here)")}
}

// validateUnsupportedComponents rejects the parts of the spec that the
// installation does not deploy, saying what to do instead.
func validateUnsupportedComponents(isvc *v1beta1.InferenceService, caps Capabilities) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if isvc.Spec.Transformer != nil && !caps.Transformer {
		errs = append(errs, field.Forbidden(spec.Child("transformer"),
			"a separate transformer component is not available in this installation, which runs the predictor only; run the transformer in the predictor's pod as a container named transformer-container in spec.predictor.containers, or remove spec.transformer"))
	}
	if isvc.Spec.Explainer != nil && !caps.Explainer {
		errs = append(errs, field.Forbidden(spec.Child("explainer"),
			"explainers are not available in this installation, which runs the predictor only; remove spec.explainer"))
	}
	if len(isvc.Spec.Canary) > 0 && !caps.Canary {
		errs = append(errs, field.Forbidden(spec.Child("canary"),
			"canary predictors are not available in this installation; remove spec.canary and change spec.predictor instead, which rolls the new version out by replacing pods"))
	}
	if isvc.Spec.Predictor.WorkerSpec != nil && !caps.MultiNode {
		errs = append(errs, field.Forbidden(spec.Child("predictor", "workerSpec"),
			"multi-node serving (a head and workers) is not available in this installation; remove workerSpec to serve the model from single-node replicas"))
	}
	return errs
}

// validateKnativeOnlyFields rejects settings only Knative acts on when the
// component runs in another mode, where they would be ignored.
func validateKnativeOnlyFields(c *component, mode config.DeploymentMode) field.ErrorList {
	if mode == config.Knative {
		return nil
	}
	var errs field.ErrorList
	if p := c.ext.CanaryTrafficPercent; p != nil {
		errs = append(errs, field.Forbidden(c.path.Child("canaryTrafficPercent"), fmt.Sprintf(
			"splits traffic between Knative revisions and has no effect in %s mode; remove it (a changed predictor rolls out by replacing pods)", mode)))
	}
	if cc := c.ext.ContainerConcurrency; cc != nil && *cc > 0 {
		errs = append(errs, field.Forbidden(c.path.Child("containerConcurrency"), fmt.Sprintf(
			"is enforced by Knative's queue-proxy and has no effect in %s mode; remove it and bound concurrency in the model server instead", mode)))
	}
	return errs
}
