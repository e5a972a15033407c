package predictor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestUpdateImageTag(t *testing.T) {
	gpu := corev1.ResourceRequirements{Limits: corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")}}
	v := func(s string) *string { return &s }
	cases := []struct {
		image, server, want string
		version             *string
		res                 corev1.ResourceRequirements
	}{
		{"kserve/sklearnserver:latest", "", "kserve/sklearnserver:1.2", v("1.2"), corev1.ResourceRequirements{}},
		{"kserve/sklearnserver", "", "kserve/sklearnserver:1.2", v("1.2"), corev1.ResourceRequirements{}},
		{"registry:5000/server", "", "registry:5000/server:9", v("9"), corev1.ResourceRequirements{}},
		{"img@sha256:abc", "", "img@sha256:abc", v("1"), corev1.ResourceRequirements{}},
		{"tensorflow/serving:2.6.2", "tensorflow-serving", "tensorflow/serving:2.6.2-gpu", nil, gpu},
		{"tensorflow/serving:2.6.2-gpu", "tensorflow-serving", "tensorflow/serving:2.6.2-gpu", nil, gpu},
		{"tensorflow/serving:2.6.2", "tensorflow-serving", "tensorflow/serving:2.6.2", nil, corev1.ResourceRequirements{}},
		{"kserve/vllm:0.5", "vllmserver", "kserve/vllm-cpu:0.5", nil, corev1.ResourceRequirements{}},
		{"kserve/vllm:0.5", "vllmserver", "kserve/vllm:0.5", nil, gpu},
		{"kserve/sklearnserver:latest", "", "kserve/sklearnserver:latest", nil, gpu},
	}
	for _, c := range cases {
		ctr := corev1.Container{Image: c.image, Resources: c.res}
		updateImageTag(&ctr, c.version, c.server)
		assert.Equal(t, c.want, ctr.Image, "%s %s", c.image, c.server)
	}
}
