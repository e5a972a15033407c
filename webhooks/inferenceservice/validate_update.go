package inferenceservice

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// annotationsValidated are the annotations the rules read; a change to any
// other annotation, a label or a finalizer cannot make an object invalid.
var annotationsValidated = []string{
	v1beta1.DeploymentModeAnnotation,
	v1beta1.AutoscalerClassAnnotation,
	v1beta1.GPUResourceTypesAnnotation,
	v1beta1.KnativeAutoscalingClassAnnotation,
}

// ValidateUpdate checks an update: the deployment mode recorded in status
// never changes, renaming the predictor needs a new model, and the new
// object must pass Validate. An update that leaves the spec and the
// annotations the rules read unchanged is always allowed, so labels,
// finalizers and other metadata can be written on an object admitted under
// older rules or before the webhook ran (the controller adds its finalizer
// this way).
func ValidateUpdate(old, new *v1beta1.InferenceService, cfg *config.Config, caps Capabilities) field.ErrorList {
	if cfg == nil {
		cfg = config.Default()
	}
	if unchangedForValidation(old, new, cfg) {
		return nil
	}
	errs := validateModeUnchanged(old, new)
	errs = append(errs, validatePredictorRename(old, new)...)
	return append(errs, Validate(new, cfg, caps)...)
}

// unchangedForValidation compares new with old as the defaulter would have
// left it, so a defaulter change (a new default resource) alone does not
// re-validate an object.
func unchangedForValidation(old, new *v1beta1.InferenceService, cfg *config.Config) bool {
	defaulted := old.DeepCopy()
	Default(defaulted, cfg)
	for _, key := range annotationsValidated {
		a, aok := defaulted.Annotations[key]
		b, bok := new.Annotations[key]
		if a != b || aok != bok {
			return false
		}
	}
	return new.Name == old.Name && (equality.Semantic.DeepEqual(old.Spec, new.Spec) || equality.Semantic.DeepEqual(defaulted.Spec, new.Spec))
}

// validateModeUnchanged rejects an annotation that names a mode other than
// the one recorded in status: a running service never switches mode.
func validateModeUnchanged(old, new *v1beta1.InferenceService) field.ErrorList {
	recorded, ok := config.NormalizeDeploymentMode(old.Status.DeploymentMode)
	if !ok {
		return nil
	}
	raw, annotated := new.Annotations[v1beta1.DeploymentModeAnnotation]
	if !annotated {
		return nil
	}
	if mode, known := config.NormalizeDeploymentMode(raw); known && mode == recorded {
		return nil
	}
	return field.ErrorList{field.Invalid(modePath, raw, fmt.Sprintf(
		"update rejected: deploymentMode cannot be changed from %s to %s; set it back to %s, or delete the InferenceService and create it again in the new mode",
		recorded, raw, recorded))}
}

// validatePredictorRename: renaming the predictor moves it to a new
// Deployment ({isvc}-{name}-predictor), which is how canaries are promoted,
// so it must come with a new model.
func validatePredictorRename(old, new *v1beta1.InferenceService) field.ErrorList {
	o, n := &old.Spec.Predictor, &new.Spec.Predictor
	if o.Name == n.Name || modelChanged(o, n) {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("spec", "predictor", "name"), n.Name, fmt.Sprintf(
		"predictor.name change requires a model change (e.g. storageUri): renaming %q to %q moves the predictor to a new Deployment; change the model in the same update, or keep the old name",
		o.Name, n.Name))}
}

// modelChanged compares what the predictor downloads: its storage URI and
// its storageUris.
func modelChanged(o, n *v1beta1.PredictorSpec) bool {
	ou, nu := o.GetStorageUri(), n.GetStorageUri()
	if (ou == nil) != (nu == nil) || (ou != nil && *ou != *nu) {
		return true
	}
	return !equality.Semantic.DeepEqual(o.StorageUris, n.StorageUris)
}
