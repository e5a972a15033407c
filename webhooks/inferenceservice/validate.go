package inferenceservice

import (
	"fmt"
	"regexp"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// nameFormat is KServe's rule for InferenceService names: a DNS-1035 label,
// because the name becomes part of Service and host names.
const nameFormat = "[a-z]([-a-z0-9]*[a-z0-9])?"

var nameRegexp = regexp.MustCompile("^" + nameFormat + "$")

// maxServiceNameLength is the longest DNS-1035 label, the limit for the
// Service named after the predictor.
const maxServiceNameLength = 63

// Validate checks an InferenceService as the validating webhook sees it on
// create (after defaulting): KServe's rules, and fsmserve's rule that every
// field the installation cannot honour is rejected. Every error names the
// field and says how to fix it. A nil cfg means the built-in configuration.
func Validate(isvc *v1beta1.InferenceService, cfg *config.Config, caps Capabilities) field.ErrorList {
	if cfg == nil {
		cfg = config.Default()
	}
	mode := cfg.Deploy.ModeFor(isvc.Status.DeploymentMode, isvc.Annotations)
	var errs field.ErrorList
	errs = append(errs, validateName(isvc)...)
	errs = append(errs, validateDeploymentMode(isvc, mode, caps)...)
	errs = append(errs, validateAutoscalerClasses(isvc, caps)...)
	errs = append(errs, validateUnsupportedComponents(isvc, caps)...)
	errs = append(errs, validateMultiNode(isvc, cfg, caps)...)
	for _, c := range components(isvc) {
		if c.kind != v1beta1.PredictorComponent && !supportsComponent(caps, c.kind) {
			continue
		}
		errs = append(errs, validateComponent(&c, isvc, mode, caps)...)
	}
	errs = append(errs, validateCanaries(isvc, mode, caps)...)
	return errs
}

// validateComponent runs the rules every component shares.
func validateComponent(c *component, isvc *v1beta1.InferenceService, mode config.DeploymentMode, caps Capabilities) field.ErrorList {
	errs := validateBlockedEnv(c)
	if !validateExactlyOne(c, &errs) {
		return append(errs, validateExtension(c, mode)...)
	}
	errs = append(errs, validateImplementation(c)...)
	errs = append(errs, validateStorage(c)...)
	errs = append(errs, validateExtension(c, mode)...)
	errs = append(errs, validateAutoscaling(c, isvc.Annotations, mode, caps)...)
	return errs
}

func validateName(isvc *v1beta1.InferenceService) field.ErrorList {
	path := field.NewPath("metadata", "name")
	if !nameRegexp.MatchString(isvc.Name) {
		return field.ErrorList{field.Invalid(path, isvc.Name, fmt.Sprintf(
			"an InferenceService name must consist of lower case letters, digits and '-', start with a letter and end with a letter or digit (e.g. \"my-model\", regex %q), because it becomes part of Service and host names", nameFormat))}
	}
	services := []string{isvc.PredictorDeploymentName()}
	if isvc.Spec.Transformer != nil {
		services = append(services, isvc.ComponentDeploymentName(v1beta1.TransformerComponent))
	}
	if isvc.Spec.Explainer != nil {
		services = append(services, isvc.ComponentDeploymentName(v1beta1.ExplainerComponent))
	}
	for i := range isvc.Spec.Canary {
		services = append(services, isvc.CanaryDeploymentName(&isvc.Spec.Canary[i]))
	}
	for _, service := range services {
		if len(service) > maxServiceNameLength {
			return field.ErrorList{field.Invalid(path, isvc.Name, fmt.Sprintf(
				"is too long: the Service %q would have %d characters and a Service name has at most %d; shorten the name (or the predictor's name)",
				service, len(service), maxServiceNameLength))}
		}
	}
	return nil
}

func supportsComponent(caps Capabilities, kind v1beta1.ComponentType) bool {
	switch kind {
	case v1beta1.TransformerComponent:
		return caps.Transformer
	case v1beta1.ExplainerComponent:
		return caps.Explainer
	}
	return true
}
