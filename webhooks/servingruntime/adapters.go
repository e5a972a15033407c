package servingruntime

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
)

// ConfigLoader returns the current inferenceservice-config: the parsed
// configuration, the keys it rejected (nil when none), and an error when it
// could not be read at all.
type ConfigLoader func(ctx context.Context) (*config.Config, *config.Errors, error)

// Validator validates ServingRuntimes and ClusterServingRuntimes. Serve it
// through NewServingRuntimeValidator and NewClusterServingRuntimeValidator.
type Validator struct {
	// Client lists the other runtimes in scope; an uncached reader sees
	// runtimes created a moment ago.
	Client client.Reader
	// Config loads inferenceservice-config (multiNode GPU types); nil means
	// the built-in configuration.
	Config ConfigLoader
}

// NewServingRuntimeValidator validates ServingRuntimes against the others
// of their namespace.
func NewServingRuntimeValidator(v *Validator) admission.Validator[*v1alpha1.ServingRuntime] {
	return &kindValidator[*v1alpha1.ServingRuntime]{v: v, kind: "ServingRuntime",
		spec: func(r *v1alpha1.ServingRuntime) *v1alpha1.ServingRuntimeSpec { return &r.Spec },
		list: func(ctx context.Context, r *v1alpha1.ServingRuntime) ([]NamedSpec, error) {
			list := &v1alpha1.ServingRuntimeList{}
			if err := v.Client.List(ctx, list, client.InNamespace(r.Namespace)); err != nil {
				return nil, err
			}
			out := make([]NamedSpec, len(list.Items))
			for i := range list.Items {
				out[i] = NamedSpec{Name: list.Items[i].Name, Spec: &list.Items[i].Spec}
			}
			return out, nil
		}}
}

// NewClusterServingRuntimeValidator validates ClusterServingRuntimes
// against every other ClusterServingRuntime.
func NewClusterServingRuntimeValidator(v *Validator) admission.Validator[*v1alpha1.ClusterServingRuntime] {
	return &kindValidator[*v1alpha1.ClusterServingRuntime]{v: v, kind: "ClusterServingRuntime",
		spec: func(r *v1alpha1.ClusterServingRuntime) *v1alpha1.ServingRuntimeSpec { return &r.Spec },
		list: func(ctx context.Context, _ *v1alpha1.ClusterServingRuntime) ([]NamedSpec, error) {
			list := &v1alpha1.ClusterServingRuntimeList{}
			if err := v.Client.List(ctx, list); err != nil {
				return nil, err
			}
			out := make([]NamedSpec, len(list.Items))
			for i := range list.Items {
				out[i] = NamedSpec{Name: list.Items[i].Name, Spec: &list.Items[i].Spec}
			}
			return out, nil
		}}
}

// kindValidator adapts ValidateRuntime to one of the two runtime kinds.
type kindValidator[T client.Object] struct {
	v    *Validator
	kind string
	spec func(T) *v1alpha1.ServingRuntimeSpec
	list func(context.Context, T) ([]NamedSpec, error)
}

func (k *kindValidator[T]) ValidateCreate(ctx context.Context, obj T) (admission.Warnings, error) {
	return nil, k.validate(ctx, obj, nil)
}

// ValidateUpdate allows updates of runtimes being deleted and updates that
// leave the spec unchanged (labels, finalizers), whatever the rules say now.
func (k *kindValidator[T]) ValidateUpdate(ctx context.Context, old, new T) (admission.Warnings, error) {
	if new.GetDeletionTimestamp() != nil || equality.Semantic.DeepEqual(k.spec(old), k.spec(new)) {
		return nil, nil
	}
	return nil, k.validate(ctx, new, k.spec(old))
}

// ValidateDelete allows every delete.
func (k *kindValidator[T]) ValidateDelete(context.Context, T) (admission.Warnings, error) {
	return nil, nil
}

func (k *kindValidator[T]) validate(ctx context.Context, obj T, old *v1alpha1.ServingRuntimeSpec) error {
	spec := k.spec(obj)
	if spec.IsDisabled() {
		return nil
	}
	cfg, err := k.v.loadConfig(ctx)
	if err != nil {
		return err
	}
	others, err := k.list(ctx, obj)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("listing %ss to compare priorities: %w", k.kind, err))
	}
	others = withPrevious(others, obj.GetName(), old)
	errs := ValidateRuntime(spec, obj.GetName(), others, cfg)
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(v1alpha1.GroupVersion.WithKind(k.kind).GroupKind(), obj.GetName(), errs)
}

// withPrevious makes the stored version of the runtime, when the request
// carries it, the entry the rules compare against.
func withPrevious(others []NamedSpec, name string, old *v1alpha1.ServingRuntimeSpec) []NamedSpec {
	if old == nil {
		return others
	}
	out := make([]NamedSpec, 0, len(others)+1)
	for _, o := range others {
		if o.Name != name {
			out = append(out, o)
		}
	}
	return append(out, NamedSpec{Name: name, Spec: old})
}

func (v *Validator) loadConfig(ctx context.Context) (*config.Config, error) {
	if v.Config == nil {
		return config.Default(), nil
	}
	cfg, keyErrs, err := v.Config(ctx)
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("reading %s: %w", config.ConfigMapName, err))
	}
	if ke := keyErrs.For(config.KeyMultiNode); ke != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("%w; runtimes cannot be admitted until the ConfigMap is fixed", ke))
	}
	if cfg == nil {
		cfg = config.Default()
	}
	return cfg, nil
}
