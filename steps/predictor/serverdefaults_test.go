package predictor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

func modelISVC(format string, storage bool) *v1beta1.InferenceService {
	isvc := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "m"}, Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
		Model: &v1beta1.ModelSpec{ModelFormat: v1beta1.ModelFormat{Name: format}}}}}
	if storage {
		u := "s3://b/m"
		isvc.Spec.Predictor.Model.StorageURI = &u
	}
	return isvc
}

func TestServerDefaults(t *testing.T) {
	ml := modelISVC("xgboost", true)
	applyServerDefaults(ml, "mlserver")
	assert.Equal(t, v1beta1.ProtocolV2, *ml.Spec.Predictor.Model.ProtocolVersion)
	assert.Equal(t, "mlserver_xgboost.XGBoostModel", ml.Labels["modelClass"])
	assert.Contains(t, ml.Spec.Predictor.Model.Env, corev1.EnvVar{Name: "MLSERVER_MODEL_URI", Value: "/mnt/models"})

	mlNoStorage := modelISVC("sklearn", false)
	applyServerDefaults(mlNoStorage, "mlserver")
	assert.Equal(t, []corev1.EnvVar{{Name: "MLSERVER_LOAD_MODELS_AT_STARTUP", Value: "false"}}, mlNoStorage.Spec.Predictor.Model.Env)

	triton := modelISVC("triton", false)
	applyServerDefaults(triton, "tritonserver")
	assert.Equal(t, []string{"--model-control-mode=explicit"}, triton.Spec.Predictor.Model.Args)

	torch := modelISVC("pytorch", true)
	v2 := v1beta1.ProtocolV2
	torch.Spec.Predictor.Model.ProtocolVersion = &v2
	applyServerDefaults(torch, "torchserve")
	assert.Equal(t, "kservev2", torch.Labels["serviceEnvelope"])
	assert.Contains(t, torch.Spec.Predictor.Model.Env, corev1.EnvVar{Name: "PROTOCOL_VERSION", Value: "v2"})

	assert.Equal(t, "mlserver", serverType("anything", map[string]string{ServerTypeAnnotation: "mlserver"}))
	assert.Equal(t, "tritonserver", serverType("kserve-tritonserver", nil))
}
