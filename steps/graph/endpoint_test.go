package graph

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

const address = "http://iris-predictor.ns.svc.cluster.local"

func isvcWith(mut func(*v1beta1.InferenceService)) *v1beta1.InferenceService {
	uri := "gs://bucket/model"
	isvc := &v1beta1.InferenceService{
		ObjectMeta: metav1.ObjectMeta{Name: "iris", Namespace: "ns"},
		Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
			SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}},
		}},
		Status: v1beta1.InferenceServiceStatus{Address: &common.Addressable{URL: common.NewURL(address)}},
	}
	if mut != nil {
		mut(isvc)
	}
	return isvc
}

func model(runtime string, protocol v1beta1.InferenceServiceProtocol, args []string, env ...corev1.EnvVar) *v1beta1.ModelSpec {
	uri := "gs://bucket/model"
	m := &v1beta1.ModelSpec{ModelFormat: v1beta1.ModelFormat{Name: "sklearn"}, PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}
	if runtime != "" {
		m.Runtime = &runtime
	}
	if protocol != "" {
		m.ProtocolVersion = &protocol
	}
	m.Args, m.Env = args, env
	return m
}

func transformer(args []string, env ...corev1.EnvVar) *v1beta1.TransformerSpec {
	return &v1beta1.TransformerSpec{PodSpec: v1beta1.PodSpec{Containers: []corev1.Container{{Name: "kserve-container", Args: args, Env: env}}}}
}

func runtimeSpeaking(protocols ...v1alpha1.InferenceServiceProtocol) *v1alpha1.ServingRuntimeSpec {
	return &v1alpha1.ServingRuntimeSpec{ProtocolVersions: protocols}
}

func TestServiceURL(t *testing.T) {
	cases := []struct {
		why  string
		isvc *v1beta1.InferenceService
		rt   *v1alpha1.ServingRuntimeSpec
		want string
	}{
		{"a shorthand speaks v1 and serves the model named after the service", isvcWith(nil), nil, address + "/v1/models/iris:predict"},
		{"protocolVersion v2 gives the v2 path", isvcWith(func(i *v1beta1.InferenceService) { i.Spec.Predictor.SKLearn.ProtocolVersion = ptr(v1beta1.ProtocolV2) }), nil, address + "/v2/models/iris/infer"},
		{"--model_name=x on the model names it", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("", "", []string{"--model_name=flowers"})
		}), nil, address + "/v1/models/flowers:predict"},
		{"--model_name x in two arguments names it", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("", "", []string{"--model_name", "flowers"})
		}), nil, address + "/v1/models/flowers:predict"},
		{"MLSERVER_MODEL_NAME beats the argument", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("", "v2", []string{"--model_name=a"}, corev1.EnvVar{Name: "MLSERVER_MODEL_NAME", Value: "b"})
		}), nil, address + "/v2/models/b/infer"},
		{"an explicit runtime decides with its first HTTP protocol", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("mlserver", "", nil)
		}), runtimeSpeaking("grpc-v2", "v2"), address + "/v2/models/iris/infer"},
		{"an explicit v1/v2 protocolVersion beats the runtime's list", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("sklearn", "v2", nil)
		}), runtimeSpeaking("v1", "v2"), address + "/v2/models/iris/infer"},
		{"a runtime without protocolVersions keeps the predictor's", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("custom", "", nil)
		}), runtimeSpeaking(), address + "/v1/models/iris:predict"},
		{"a transformer's protocol and model name win", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn.ProtocolVersion = ptr(v1beta1.ProtocolV1)
			i.Spec.Transformer = transformer([]string{"--model_name=resnet"}, corev1.EnvVar{Name: "PROTOCOL", Value: "v2"})
		}), nil, address + "/v2/models/resnet/infer"},
		{"a transformer without PROTOCOL speaks v1", isvcWith(func(i *v1beta1.InferenceService) { i.Spec.Transformer = transformer(nil) }), nil, address + "/v1/models/iris:predict"},
		{"a custom container names the model with --model_name", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn = nil
			i.Spec.Predictor.Containers = []corev1.Container{{Name: "kserve-container", Args: []string{"--model_name=custom"}}}
		}), nil, address + "/v1/models/custom:predict"},
		{"a multi-model server gets no path", isvcWith(func(i *v1beta1.InferenceService) { i.Spec.Predictor.SKLearn.StorageURI = nil }), nil, address},
		{"a grpc predictor gets no path", isvcWith(func(i *v1beta1.InferenceService) {
			i.Spec.Predictor.SKLearn.ProtocolVersion = ptr(v1beta1.ProtocolGRPCV2)
		}), nil, address},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, err := ServiceURL(c.isvc, c.rt)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestRuntimeWithoutHTTPProtocolIsAProtocolError(t *testing.T) {
	isvc := isvcWith(func(i *v1beta1.InferenceService) {
		i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("triton-grpc", "", nil)
	})
	_, err := ServiceURL(isvc, runtimeSpeaking("grpc-v2"))
	var pe *ProtocolError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, pe.Message, "triton-grpc")
	assert.Contains(t, pe.Message, "protocolVersion")
}

func TestRuntimeNeeded(t *testing.T) {
	assert.Empty(t, RuntimeNeeded(isvcWith(nil)), "a shorthand needs no runtime lookup")
	withRuntime := isvcWith(func(i *v1beta1.InferenceService) {
		i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("mlserver", "", nil)
	})
	assert.Equal(t, "mlserver", RuntimeNeeded(withRuntime))
	explicit := isvcWith(func(i *v1beta1.InferenceService) {
		i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("mlserver", "v2", nil)
	})
	assert.Empty(t, RuntimeNeeded(explicit), "an explicit v1/v2 protocolVersion decides")
	withTransformer := isvcWith(func(i *v1beta1.InferenceService) {
		i.Spec.Predictor.SKLearn, i.Spec.Predictor.Model = nil, model("mlserver", "", nil)
		i.Spec.Transformer = transformer(nil)
	})
	assert.Empty(t, RuntimeNeeded(withTransformer), "the transformer decides")
}

func TestIsMultiModel(t *testing.T) {
	hf := isvcWith(func(i *v1beta1.InferenceService) {
		i.Spec.Predictor.SKLearn = nil
		i.Spec.Predictor.HuggingFace = &v1beta1.HuggingFaceRuntimeSpec{}
	})
	assert.False(t, IsMultiModel(&hf.Spec.Predictor), "Hugging Face loads by model ID")
	mms := isvcWith(func(i *v1beta1.InferenceService) {
		i.Spec.Predictor.SKLearn = nil
		i.Spec.Predictor.Containers = []corev1.Container{{Name: "c", Env: []corev1.EnvVar{{Name: "MULTI_MODEL_SERVER", Value: "true"}}}}
	})
	assert.True(t, IsMultiModel(&mms.Spec.Predictor))
	assert.False(t, IsMultiModel(&isvcWith(nil).Spec.Predictor))
}
