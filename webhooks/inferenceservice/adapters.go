package inferenceservice

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// ConfigLoader returns the current inferenceservice-config: the parsed
// configuration, the keys it rejected (nil when none), and an error when it
// could not be read at all.
type ConfigLoader func(ctx context.Context) (*config.Config, *config.Errors, error)

// LocalModelLabeler labels an InferenceService whose model is cached on the
// nodes (KServe's defaulter step 4: internal.serving.kserve.io/localmodel
// and friends). It runs after the pure defaults.
type LocalModelLabeler interface {
	Label(ctx context.Context, isvc *v1beta1.InferenceService) error
}

// Config keys each adapter reads. A rejected key fails the request rather
// than silently using defaults: a wrong deployment mode would be recorded
// for good.
var (
	defaulterKeys = []string{config.KeyDeploy, config.KeyInferenceService, config.KeySecurity, config.KeyExplainers}
	validatorKeys = []string{config.KeyDeploy, config.KeyMultiNode}
)

// Defaulter is the mutating webhook for InferenceServices.
type Defaulter struct {
	// Config loads inferenceservice-config on every request; nil means the
	// built-in configuration.
	Config ConfigLoader
	// LocalModelLabeler is optional; nil skips local-model labelling.
	LocalModelLabeler LocalModelLabeler
}

var _ admission.Defaulter[*v1beta1.InferenceService] = (*Defaulter)(nil)

// Default implements admission.Defaulter. An object being deleted is left
// alone, so that removing its finalizers never depends on the ConfigMap.
func (d *Defaulter) Default(ctx context.Context, isvc *v1beta1.InferenceService) error {
	if isvc.DeletionTimestamp != nil {
		return nil
	}
	cfg, err := loadConfig(ctx, d.Config, defaulterKeys)
	if err != nil {
		return err
	}
	Default(isvc, cfg)
	controllerutil.AddFinalizer(isvc, v1beta1.InferenceServiceFinalizer)
	if d.LocalModelLabeler != nil {
		if err := d.LocalModelLabeler.Label(ctx, isvc); err != nil {
			return apierrors.NewInternalError(fmt.Errorf("labelling the InferenceService for local model caches: %w", err))
		}
	}
	return nil
}

// Validator is the validating webhook for InferenceServices.
type Validator struct {
	// Config loads inferenceservice-config on every request; nil means the
	// built-in configuration.
	Config ConfigLoader
	// Capabilities is what the installation honours.
	Capabilities Capabilities
}

var _ admission.Validator[*v1beta1.InferenceService] = (*Validator)(nil)

// ValidateCreate implements admission.Validator.
func (v *Validator) ValidateCreate(ctx context.Context, isvc *v1beta1.InferenceService) (admission.Warnings, error) {
	cfg, err := loadConfig(ctx, v.Config, validatorKeys)
	if err != nil {
		return nil, err
	}
	return Warnings(isvc), invalid(isvc, Validate(isvc, cfg, v.Capabilities))
}

// ValidateUpdate implements admission.Validator. Updates of an object that
// is being deleted are allowed, so finalizers can always be removed.
func (v *Validator) ValidateUpdate(ctx context.Context, old, new *v1beta1.InferenceService) (admission.Warnings, error) {
	if new.DeletionTimestamp != nil {
		return nil, nil
	}
	cfg, err := loadConfig(ctx, v.Config, validatorKeys)
	if err != nil {
		return nil, err
	}
	return Warnings(new), invalid(new, ValidateUpdate(old, new, cfg, v.Capabilities))
}

// ValidateDelete implements admission.Validator: deletes are always allowed.
func (v *Validator) ValidateDelete(context.Context, *v1beta1.InferenceService) (admission.Warnings, error) {
	return nil, nil
}

// Warnings are admission warnings for settings that are valid but have no
// effect.
func Warnings(isvc *v1beta1.InferenceService) admission.Warnings {
	return confidentialWarnings(isvc)
}

// invalid turns field errors into the Invalid (422) status the API server
// shows as `InferenceService "x" is invalid: spec.predictor.minReplicas: ...`.
func invalid(isvc *v1beta1.InferenceService, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(v1beta1.GroupVersion.WithKind("InferenceService").GroupKind(), isvc.Name, errs)
}

// loadConfig reads the configuration and fails when it cannot be read or
// when one of the keys admission depends on was rejected.
func loadConfig(ctx context.Context, load ConfigLoader, keys []string) (*config.Config, error) {
	if load == nil {
		return config.Default(), nil
	}
	cfg, keyErrs, err := load(ctx)
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("reading %s: %w", config.ConfigMapName, err))
	}
	for _, key := range keys {
		if ke := keyErrs.For(key); ke != nil {
			return nil, apierrors.NewInternalError(fmt.Errorf("%w; InferenceServices cannot be admitted until the ConfigMap is fixed", ke))
		}
	}
	if cfg == nil {
		cfg = config.Default()
	}
	return cfg, nil
}
