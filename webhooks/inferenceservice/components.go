package inferenceservice

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// component is the view of a predictor, transformer or explainer that the
// rules shared by all three need: where it sits in the object, its pod,
// scaling settings, storage and implementations.
type component struct {
	kind        v1beta1.ComponentType
	path        *field.Path
	pod         *v1beta1.PodSpec
	ext         *v1beta1.ComponentExtensionSpec
	storageUris []v1beta1.StorageUri
	impls       []implementation
	// predictor is set for predictors (stable and canary) only.
	predictor *v1beta1.PredictorSpec
	// explainer is set for the explainer only.
	explainer *v1beta1.ExplainerSpec
}

// implementation is one way a component is set to run: a framework
// shorthand, model, art or custom containers.
type implementation struct {
	// field is the JSON field that holds it ("sklearn", "model", "art",
	// "containers").
	field string
	// path is where it is written, e.g. spec.predictor.model or
	// spec.predictor.containers[0].
	path *field.Path
	// container is the serving container; nil for a custom component with
	// no containers.
	container *corev1.Container
	// storageURI is the single model URI the implementation downloads.
	storageURI *string
	// extension is set for a framework shorthand or model.
	extension *v1beta1.PredictorExtensionSpec
	// model is set for predictor.model.
	model *v1beta1.ModelSpec
}

func (c *component) single() *implementation {
	if len(c.impls) != 1 {
		return nil
	}
	return &c.impls[0]
}

// components lists the present components of isvc, stable predictor first.
// Canary predictors are listed by canaryComponent.
func components(isvc *v1beta1.InferenceService) []component {
	spec := field.NewPath("spec")
	out := []component{predictorComponent(&isvc.Spec.Predictor, spec.Child("predictor"))}
	if t := isvc.Spec.Transformer; t != nil {
		out = append(out, transformerComponent(t, spec.Child("transformer")))
	}
	if e := isvc.Spec.Explainer; e != nil {
		out = append(out, explainerComponent(e, spec.Child("explainer")))
	}
	return out
}

func predictorComponent(p *v1beta1.PredictorSpec, path *field.Path) component {
	c := component{kind: v1beta1.PredictorComponent, path: path, pod: &p.PodSpec,
		ext: &p.ComponentExtensionSpec, storageUris: p.StorageUris, predictor: p}
	for _, impl := range p.GetImplementations() {
		if impl.Extension != nil {
			i := implementation{field: impl.Field, path: path.Child(impl.Field),
				container: impl.Container, storageURI: impl.Extension.StorageURI, extension: impl.Extension}
			if impl.Field == v1beta1.FieldModel {
				i.model = p.Model
			}
			c.impls = append(c.impls, i)
			continue
		}
		i := containerIndex(p.Containers, impl.Container)
		c.impls = append(c.impls, implementation{field: v1beta1.FieldContainers,
			path: path.Child("containers").Index(i), container: impl.Container,
			storageURI: customStorageURI(impl.Container)})
	}
	return c
}

func transformerComponent(t *v1beta1.TransformerSpec, path *field.Path) component {
	c := component{kind: v1beta1.TransformerComponent, path: path, pod: &t.PodSpec,
		ext: &t.ComponentExtensionSpec, storageUris: t.StorageUris}
	if len(t.Containers) > 0 {
		c.impls = append(c.impls, firstContainer(t.Containers, path))
	}
	return c
}

func explainerComponent(e *v1beta1.ExplainerSpec, path *field.Path) component {
	c := component{kind: v1beta1.ExplainerComponent, path: path, pod: &e.PodSpec,
		ext: &e.ComponentExtensionSpec, storageUris: e.StorageUris, explainer: e}
	if e.ART != nil {
		var uri *string
		if e.ART.StorageURI != "" {
			uri = &e.ART.StorageURI
		}
		c.impls = append(c.impls, implementation{field: "art", path: path.Child("art"),
			container: &e.ART.Container, storageURI: uri})
	}
	if len(e.Containers) > 0 {
		c.impls = append(c.impls, firstContainer(e.Containers, path))
	}
	return c
}

// firstContainer is a custom transformer or explainer: its first container
// serves, and STORAGE_URI there asks for a download.
func firstContainer(containers []corev1.Container, path *field.Path) implementation {
	return implementation{field: v1beta1.FieldContainers, path: path.Child("containers").Index(0),
		container: &containers[0], storageURI: envValue(containers[0].Env, v1beta1.StorageURIEnvVar)}
}

// customStorageURI is STORAGE_URI of a custom kserve-container, as KServe
// reads it; other containers do not download models.
func customStorageURI(c *corev1.Container) *string {
	if c.Name != v1beta1.PredictorContainerName {
		return nil
	}
	return envValue(c.Env, v1beta1.StorageURIEnvVar)
}

func containerIndex(containers []corev1.Container, c *corev1.Container) int {
	for i := range containers {
		if &containers[i] == c {
			return i
		}
	}
	return 0
}

func envValue(env []corev1.EnvVar, name string) *string {
	for i := range env {
		if env[i].Name == name {
			return &env[i].Value
		}
	}
	return nil
}
