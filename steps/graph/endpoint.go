// Package graph builds what an InferenceGraph needs: the URL each serviceName
// step calls (from its InferenceService, as KServe derives it), the resolved
// graph JSON the router runs, and the router's Deployment, Service and HPA.
// Everything here is pure; the controller reads the cluster.
package graph

import (
	"fmt"
	"strings"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// KServe's names: the model-name argument of KServe model servers and the
// variables MLServer and custom multi-model servers read.
const (
	modelNameArg          = "--model_name"
	mlserverModelNameEnv  = "MLSERVER_MODEL_NAME"
	multiModelServerEnv   = "MULTI_MODEL_SERVER"
	huggingFaceFormatName = "huggingface"
)

// ProtocolError says the InferenceService speaks no protocol a graph can call.
type ProtocolError struct{ Message string }

func (e *ProtocolError) Error() string { return e.Message }

// ModelName is the model an InferenceService serves, as KServe finds it: the
// --model_name argument of the transformer's first container, else the
// MLSERVER_MODEL_NAME variable or --model_name argument of spec.predictor.model,
// else the --model_name argument of the predictor's first custom container,
// else the InferenceService's name.
func ModelName(isvc *v1beta1.InferenceService) string {
	if t := isvc.Spec.Transformer; t != nil && len(t.Containers) > 0 {
		if name := modelNameFromArgs(t.Containers[0].Args); name != "" {
			return name
		}
	}
	pred := &isvc.Spec.Predictor
	switch {
	case pred.Model != nil:
		for _, env := range pred.Model.Env {
			if env.Name == mlserverModelNameEnv {
				return env.Value
			}
		}
		if name := modelNameFromArgs(pred.Model.Args); name != "" {
			return name
		}
	case len(pred.Containers) > 0:
		if name := modelNameFromArgs(pred.Containers[0].Args); name != "" {
			return name
		}
	}
	return isvc.Name
}

// modelNameFromArgs reads "--model_name=x" or "--model_name x"; the last one wins.
func modelNameFromArgs(args []string) string {
	name := ""
	for i, arg := range args {
		if value, ok := strings.CutPrefix(arg, modelNameArg+"="); ok {
			name = value
			continue
		}
		if arg == modelNameArg && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			name = args[i+1]
		}
	}
	return name
}

// RuntimeNeeded names the runtime whose protocolVersions decide the protocol:
// a predictor.model with an explicit runtime and no explicit v1/v2
// protocolVersion, no transformer, and not a multi-model server. "" when the
// spec alone decides.
func RuntimeNeeded(isvc *v1beta1.InferenceService) string {
	pred := &isvc.Spec.Predictor
	if isvc.Spec.Transformer != nil || IsMultiModel(pred) || pred.Model == nil || pred.Model.Runtime == nil {
		return ""
	}
	if p := pred.Model.ProtocolVersion; p != nil && isHTTP(*p) {
		return ""
	}
	return *pred.Model.Runtime
}

// Protocol is the protocol a graph calls the InferenceService with. With a
// transformer it is the transformer's (its first container's PROTOCOL
// variable, v1 by default); otherwise the predictor's, where a model with an
// explicit runtime and no explicit v1/v2 protocolVersion takes the first of v1
// and v2 in the runtime's protocolVersions. rt is that runtime's spec when
// RuntimeNeeded names one.
func Protocol(isvc *v1beta1.InferenceService, rt *v1alpha1.ServingRuntimeSpec) (v1beta1.InferenceServiceProtocol, error) {
	if t := isvc.Spec.Transformer; t != nil {
		if len(t.Containers) > 0 {
			for _, env := range t.Containers[0].Env {
				if env.Name == v1beta1.ProtocolEnvVar {
					return v1beta1.InferenceServiceProtocol(env.Value), nil
				}
			}
		}
		return v1beta1.ProtocolV1, nil
	}
	protocol := isvc.Spec.Predictor.GetProtocol()
	name := RuntimeNeeded(isvc)
	if name == "" || rt == nil || len(rt.ProtocolVersions) == 0 {
		return protocol, nil
	}
	for _, p := range rt.ProtocolVersions {
		if p := v1beta1.InferenceServiceProtocol(p); isHTTP(p) {
			return p, nil
		}
	}
	return "", &ProtocolError{Message: fmt.Sprintf("InferenceService %s uses runtime %s, whose protocolVersions %v include neither v1 nor v2, and an InferenceGraph calls models over HTTP with one of them; set spec.predictor.model.protocolVersion of %s to v1 or v2, or use a runtime that speaks one", isvc.Name, name, rt.ProtocolVersions, isvc.Name)}
}

func isHTTP(p v1beta1.InferenceServiceProtocol) bool {
	return p == v1beta1.ProtocolV1 || p == v1beta1.ProtocolV2
}

// PredictPath is the inference path of a model for a protocol: v1
// /v1/models/{m}:predict, v2 /v2/models/{m}/infer, and "" for anything else.
func PredictPath(model string, p v1beta1.InferenceServiceProtocol) string {
	switch p {
	case v1beta1.ProtocolV1:
		return "/v1/models/" + model + ":predict"
	case v1beta1.ProtocolV2:
		return "/v2/models/" + model + "/infer"
	}
	return ""
}

// ServiceURL is what a serviceName step calls: the InferenceService's
// status.address.url plus the model path, with no path for a multi-model
// predictor (the caller names the model). The address must be set.
func ServiceURL(isvc *v1beta1.InferenceService, rt *v1alpha1.ServingRuntimeSpec) (string, error) {
	base := isvc.Status.Address.URL.String()
	if isvc.Spec.Transformer == nil && IsMultiModel(&isvc.Spec.Predictor) {
		return base, nil
	}
	p, err := Protocol(isvc, rt)
	if err != nil {
		return "", err
	}
	return base + PredictPath(ModelName(isvc), p), nil
}

// IsMultiModel reports whether the predictor is a multi-model server, as
// KServe decides it: a custom container with MULTI_MODEL_SERVER=true, or a
// model without storageUri or storage (except Hugging Face, which loads by
// model ID).
func IsMultiModel(pred *v1beta1.PredictorSpec) bool {
	if len(pred.Containers) > 0 {
		for _, env := range pred.Containers[0].Env {
			if env.Name == multiModelServerEnv && env.Value == "true" {
				return true
			}
		}
		return false
	}
	if pred.HuggingFace != nil || (pred.Model != nil && pred.Model.ModelFormat.Name == huggingFaceFormatName) {
		return false
	}
	impl := pred.GetImplementation()
	if impl == nil || impl.Extension == nil {
		return false
	}
	return impl.Extension.StorageURI == nil && impl.Extension.Storage == nil
}
