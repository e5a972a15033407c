package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
)

// Field names of the ways a predictor can serve a model; a framework
// shorthand's field name is also the model format it stands for.
const (
	FieldSKLearn     = "sklearn"
	FieldXGBoost     = "xgboost"
	FieldTensorflow  = "tensorflow"
	FieldPyTorch     = "pytorch"
	FieldTriton      = "triton"
	FieldONNX        = "onnx"
	FieldHuggingFace = "huggingface"
	FieldPMML        = "pmml"
	FieldLightGBM    = "lightgbm"
	FieldPaddle      = "paddle"
	FieldModel       = "model"
	FieldContainers  = "containers"
)

// PredictorImplementation is one way a predictor is set to serve its model.
type PredictorImplementation struct {
	// Field is the JSON field that holds it: a framework shorthand, "model"
	// or "containers".
	Field string
	// Extension holds the storage, protocol and container overrides of a
	// framework shorthand or model; nil for custom containers.
	Extension *PredictorExtensionSpec
	// Container is the serving container: the inline container of a
	// shorthand or model, or the chosen custom container. It points into the
	// spec, so changes to it change the spec.
	Container *corev1.Container
}

// GetImplementations lists every implementation set on the predictor; a
// valid predictor has exactly one. Custom containers count as one when a
// container is named kserve-container, or, when nothing else is set, with
// the first container as the serving one (KServe's rule).
func (p *PredictorSpec) GetImplementations() []PredictorImplementation {
	out := p.extensions()
	for i := range p.Containers {
		if p.Containers[i].Name == PredictorContainerName {
			out = append(out, PredictorImplementation{Field: FieldContainers, Container: &p.Containers[i]})
		}
	}
	if len(out) == 0 && len(p.Containers) > 0 {
		out = append(out, PredictorImplementation{Field: FieldContainers, Container: &p.Containers[0]})
	}
	return out
}

// GetImplementation returns the first implementation, or nil when none is set.
func (p *PredictorSpec) GetImplementation() *PredictorImplementation {
	impls := p.GetImplementations()
	if len(impls) == 0 {
		return nil
	}
	return &impls[0]
}

// GetModelFormat returns the model format the predictor serves: model's
// modelFormat, or the format a shorthand stands for. It is false for custom
// containers and for a predictor with no implementation.
func (p *PredictorSpec) GetModelFormat() (ModelFormat, bool) {
	if p.Model != nil {
		return p.Model.ModelFormat, true
	}
	impl := p.GetImplementation()
	if impl == nil || impl.Field == FieldContainers {
		return ModelFormat{}, false
	}
	return ModelFormat{Name: impl.Field}, true
}

// GetRuntime returns the runtime named by model.runtime, or "" when the
// runtime is to be selected automatically.
func (p *PredictorSpec) GetRuntime() string {
	if p.Model == nil || p.Model.Runtime == nil {
		return ""
	}
	return *p.Model.Runtime
}

// GetStorageUri returns the model's storage URI: storageUri of the shorthand
// or model, or the STORAGE_URI environment variable of a custom
// kserve-container. It is nil when there is none.
func (p *PredictorSpec) GetStorageUri() *string {
	impl := p.GetImplementation()
	switch {
	case impl == nil:
		return nil
	case impl.Extension != nil:
		return impl.Extension.StorageURI
	case impl.Container.Name != PredictorContainerName:
		return nil
	}
	return envValue(impl.Container, StorageURIEnvVar)
}

// GetProtocol returns the inference protocol the predictor speaks: its
// protocolVersion, or for custom containers the PROTOCOL environment
// variable (of the collocated transformer-container when there is one), and
// v1 when nothing says otherwise.
func (p *PredictorSpec) GetProtocol() InferenceServiceProtocol {
	impl := p.GetImplementation()
	switch {
	case impl == nil:
		return ProtocolV1
	case impl.Extension != nil:
		if impl.Extension.ProtocolVersion != nil {
			return *impl.Extension.ProtocolVersion
		}
		return ProtocolV1
	}
	target := &p.Containers[0]
	for i := range p.Containers {
		if p.Containers[i].Name == TransformerContainerName {
			target = &p.Containers[i]
		}
	}
	if v := envValue(target, ProtocolEnvVar); v != nil {
		return InferenceServiceProtocol(*v)
	}
	return ProtocolV1
}

// extensions lists the shorthands and model that are set, in JSON field order.
func (p *PredictorSpec) extensions() []PredictorImplementation {
	var out []PredictorImplementation
	add := func(field string, ext *PredictorExtensionSpec) {
		out = append(out, PredictorImplementation{Field: field, Extension: ext, Container: &ext.Container})
	}
	if p.SKLearn != nil {
		add(FieldSKLearn, &p.SKLearn.PredictorExtensionSpec)
	}
	if p.XGBoost != nil {
		add(FieldXGBoost, &p.XGBoost.PredictorExtensionSpec)
	}
	if p.Tensorflow != nil {
		add(FieldTensorflow, &p.Tensorflow.PredictorExtensionSpec)
	}
	if p.PyTorch != nil {
		add(FieldPyTorch, &p.PyTorch.PredictorExtensionSpec)
	}
	if p.Triton != nil {
		add(FieldTriton, &p.Triton.PredictorExtensionSpec)
	}
	if p.ONNX != nil {
		add(FieldONNX, &p.ONNX.PredictorExtensionSpec)
	}
	if p.HuggingFace != nil {
		add(FieldHuggingFace, &p.HuggingFace.PredictorExtensionSpec)
	}
	if p.PMML != nil {
		add(FieldPMML, &p.PMML.PredictorExtensionSpec)
	}
	if p.LightGBM != nil {
		add(FieldLightGBM, &p.LightGBM.PredictorExtensionSpec)
	}
	if p.Paddle != nil {
		add(FieldPaddle, &p.Paddle.PredictorExtensionSpec)
	}
	if p.Model != nil {
		add(FieldModel, &p.Model.PredictorExtensionSpec)
	}
	return out
}

// envValue returns the value of the named environment variable of c, or nil.
func envValue(c *corev1.Container, name string) *string {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i].Value
		}
	}
	return nil
}
