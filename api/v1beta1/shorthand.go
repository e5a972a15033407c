package v1beta1

// ConvertShorthand rewrites a framework shorthand (predictor.sklearn: {...})
// as predictor.model with the matching modelFormat and defaults the protocol
// the way KServe's defaulter does: v2 for triton, onnx and huggingface
// shorthands, and for model formats triton and vLLM. The controller and the
// defaulting webhook both call it, so a predictor reads the same whether or
// not the webhook ran. Converting twice equals converting once.
//
// A shorthand next to a model replaces it, as in KServe: that is what a
// re-applied manifest looks like after kubectl apply's three-way merge (the
// shorthand the user wrote, beside the model the defaulter made of it last
// time), so the shorthand is the user's current intent.
func (p *PredictorSpec) ConvertShorthand() {
	impl := p.GetImplementation()
	if impl != nil && impl.Extension != nil && impl.Field != FieldModel {
		p.Model = &ModelSpec{ModelFormat: ModelFormat{Name: impl.Field}, PredictorExtensionSpec: *impl.Extension.DeepCopy()}
		if shorthandSpeaksV2(impl.Field) && p.Model.ProtocolVersion == nil {
			v2 := ProtocolV2
			p.Model.ProtocolVersion = &v2
		}
		p.clearShorthands()
	}
	if p.Model != nil && p.Model.ProtocolVersion == nil && (p.Model.ModelFormat.Name == "triton" || p.Model.ModelFormat.Name == "vLLM") {
		v2 := ProtocolV2
		p.Model.ProtocolVersion = &v2
	}
}

// shorthandSpeaksV2 lists the shorthands whose servers speak the v2 protocol.
func shorthandSpeaksV2(field string) bool {
	return field == FieldTriton || field == FieldONNX || field == FieldHuggingFace
}

func (p *PredictorSpec) clearShorthands() {
	p.SKLearn, p.XGBoost, p.Tensorflow, p.PyTorch, p.Triton = nil, nil, nil, nil, nil
	p.ONNX, p.HuggingFace, p.PMML, p.LightGBM, p.Paddle = nil, nil, nil, nil, nil
}

// ReappliedShorthand reports whether the predictor holds exactly one framework
// shorthand plus a model and nothing else: a re-applied shorthand manifest,
// which ConvertShorthand resolves in the shorthand's favour.
func (p *PredictorSpec) ReappliedShorthand() bool {
	impls := p.GetImplementations()
	return len(impls) == 2 && impls[0].Extension != nil && impls[0].Field != FieldModel && impls[1].Field == FieldModel
}
