package inferenceservice

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// validateCanaries checks spec.canary when the installation rolls out
// canaries (otherwise the whole field is rejected elsewhere). Canaries run
// in Standard mode next to a stable predictor that serves a model; each is
// a named predictor with fixed replicas and a share of the traffic.
func validateCanaries(isvc *v1beta1.InferenceService, mode config.DeploymentMode, caps Capabilities) field.ErrorList {
	if len(isvc.Spec.Canary) == 0 || !caps.Canary {
		return nil
	}
	path := field.NewPath("spec", "canary")
	var errs field.ErrorList
	if mode != config.Standard {
		errs = append(errs, field.Invalid(modePath, string(mode),
			"canary predictors run in Standard mode only; set the annotation serving.kserve.io/deploymentMode: Standard or remove spec.canary"))
	}
	stable := &isvc.Spec.Predictor
	if stable.GetStorageUri() == nil && stable.Model == nil {
		errs = append(errs, field.Required(field.NewPath("spec", "predictor"),
			"canaries need a stable predictor that serves a model (storageUri or model); multi-model predictors cannot have canaries"))
	}
	names := map[string]bool{}
	var total int32
	for i := range isvc.Spec.Canary {
		canary := &isvc.Spec.Canary[i]
		errs = append(errs, validateCanary(isvc, canary, path.Index(i), names, mode, caps)...)
		total += canary.TrafficPercent
	}
	if total > 100 {
		errs = append(errs, field.Invalid(path, total,
			"the canaries' trafficPercent values add up to more than 100; lower them so the sum is at most 100"))
	}
	return errs
}

func validateCanary(isvc *v1beta1.InferenceService, canary *v1beta1.CanarySpec, path *field.Path,
	names map[string]bool, mode config.DeploymentMode, caps Capabilities,
) field.ErrorList {
	p := &canary.Predictor
	pred := path.Child("predictor")
	var errs field.ErrorList
	switch {
	case p.Name == "":
		errs = append(errs, field.Required(pred.Child("name"), "every canary needs a name; its Deployment is {isvc}-{name}-predictor"))
	case names[p.Name]:
		errs = append(errs, field.Invalid(pred.Child("name"), p.Name, "is already the name of another canary; give each canary its own name"))
	case p.Name == isvc.Spec.Predictor.Name:
		errs = append(errs, field.Invalid(pred.Child("name"), p.Name, "is the stable predictor's name; give the canary its own name"))
	}
	names[p.Name] = true
	if canary.TrafficPercent < 0 || canary.TrafficPercent > 100 {
		errs = append(errs, field.Invalid(path.Child("trafficPercent"), canary.TrafficPercent, "is a percentage: use 0 to 100"))
	}
	c := predictorComponent(p, pred)
	errs = append(errs, validateBlockedEnv(&c)...)
	if validateExactlyOne(&c, &errs) {
		errs = append(errs, validateImplementation(&c)...)
		errs = append(errs, validateStorage(&c)...)
	}
	errs = append(errs, validateExtension(&c, mode)...)
	if p.WorkerSpec != nil {
		errs = append(errs, field.Forbidden(pred.Child("workerSpec"), "canaries cannot be multi-node; remove workerSpec"))
	}
	errs = append(errs, validateCanaryScaling(isvc, p, pred)...)
	return errs
}

// validateCanaryScaling: canaries run a fixed number of replicas, at most
// the stable predictor's minimum.
func validateCanaryScaling(isvc *v1beta1.InferenceService, p *v1beta1.PredictorSpec, pred *field.Path) field.ErrorList {
	var errs field.ErrorList
	fixed := "canaries run a fixed number of replicas (minReplicas); remove "
	if p.MaxReplicas > 0 {
		errs = append(errs, field.Forbidden(pred.Child("maxReplicas"), fixed+"maxReplicas"))
	}
	if p.ScaleTarget != nil {
		errs = append(errs, field.Forbidden(pred.Child("scaleTarget"), fixed+"scaleTarget"))
	}
	if p.ScaleMetric != nil {
		errs = append(errs, field.Forbidden(pred.Child("scaleMetric"), fixed+"scaleMetric"))
	}
	if p.AutoScaling != nil {
		errs = append(errs, field.Forbidden(pred.Child("autoScaling"), fixed+"autoScaling"))
	}
	stableMin := int32(1)
	if m := isvc.Spec.Predictor.MinReplicas; m != nil {
		stableMin = *m
	}
	if p.MinReplicas != nil && *p.MinReplicas > stableMin {
		errs = append(errs, field.Invalid(pred.Child("minReplicas"), *p.MinReplicas, fmt.Sprintf(
			"cannot exceed the stable predictor's minReplicas (%d); lower it or raise spec.predictor.minReplicas", stableMin)))
	}
	return errs
}
