// Package predictor builds the desired children of an InferenceService
// predictor in Standard mode (Deployment, Service, HPA) from the spec, the
// chosen runtime and the platform configuration. Every function here is pure.
package predictor

import (
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// Normalize rewrites a framework shorthand (predictor.sklearn: {...}) as
// predictor.model with the matching modelFormat and defaults the protocol the
// way KServe's defaulter does, so a predictor reads the same whether or not
// the defaulting webhook ran. It changes p in place; pass a copy.
func Normalize(p *v1beta1.PredictorSpec) {
	impl := p.GetImplementation()
	if impl != nil && impl.Extension != nil && impl.Field != v1beta1.FieldModel && p.Model == nil {
		p.Model = &v1beta1.ModelSpec{
			ModelFormat:            v1beta1.ModelFormat{Name: impl.Field},
			PredictorExtensionSpec: *impl.Extension.DeepCopy(),
		}
		if defaultsToV2(impl.Field) && p.Model.ProtocolVersion == nil {
			v2 := v1beta1.ProtocolV2
			p.Model.ProtocolVersion = &v2
		}
		clearShorthands(p)
	}
	if p.Model != nil && p.Model.ProtocolVersion == nil && (p.Model.ModelFormat.Name == "triton" || p.Model.ModelFormat.Name == "vLLM") {
		v2 := v1beta1.ProtocolV2
		p.Model.ProtocolVersion = &v2
	}
}

// defaultsToV2 lists the shorthands whose servers speak the v2 protocol.
func defaultsToV2(field string) bool {
	return field == v1beta1.FieldTriton || field == v1beta1.FieldONNX || field == v1beta1.FieldHuggingFace
}

func clearShorthands(p *v1beta1.PredictorSpec) {
	p.SKLearn, p.XGBoost, p.Tensorflow, p.PyTorch, p.Triton = nil, nil, nil, nil, nil
	p.ONNX, p.HuggingFace, p.PMML, p.LightGBM, p.Paddle = nil, nil, nil, nil, nil
}
