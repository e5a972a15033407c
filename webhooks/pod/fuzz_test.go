package pod

import (
	"context"
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

// fuzzAnnotations are the keys a fuzzed pod may carry, one bit each.
var fuzzAnnotations = []string{
	v1beta1.StorageSpecAnnotation, v1beta1.StorageSpecParamAnnotation, v1beta1.StorageSpecKeyAnnotation,
	v1beta1.StorageContainerNameAnnotation, v1beta1.StorageReadonlyAnnotation, v1beta1.StorageSecretNameAnnotation,
	v1beta1.LoggerInternalAnnotation, v1beta1.LoggerSinkURLInternalAnnotation, v1beta1.LoggerMetadataAnnotationsInternalAnnotation,
	v1beta1.BatcherInternalAnnotation, v1beta1.BatcherMaxBatchSizeInternalAnnotation, v1beta1.AgentInternalAnnotation,
	v1beta1.AgentModelDirInternalAnnotation, v1beta1.AgentConfigVolumeNameInternalAnnotation, v1beta1.StorageInitializerUIDAnnotation,
	v1beta1.GKEAcceleratorAnnotation, v1beta1.EnableMetricAggregationAnnotation, v1beta1.EnablePrometheusScrapingAnnotation,
	v1beta1.LocalModelPVCNameInternalAnnotation, v1beta1.LocalModelSourceURIInternalAnnotation, "sidecar.istio.io/interceptionMode",
	"sidecar.istio.io/status", v1beta1.ConfidentialEnabledInternalAnnotation,
}

// fuzzPod builds a pod from fuzzed parts: annotations picked by bits of
// keys, all set to value (or "true"/"REDIRECT" for switch-like keys when
// value is empty), and containers picked by bits of shape.
func fuzzPod(uri string, keys uint32, value string, shape uint8) *corev1.Pod {
	a := map[string]string{}
	if uri != "" {
		a[v1beta1.StorageInitializerSourceURIAnnotation] = uri
	}
	for i, k := range fuzzAnnotations {
		if keys&(1<<i) == 0 {
			continue
		}
		switch {
		case value != "":
			a[k] = value
		case k == "sidecar.istio.io/interceptionMode":
			a[k] = "REDIRECT"
		case k == "sidecar.istio.io/status":
			a[k] = `{"containers":["istio-proxy"]}`
		default:
			a[k] = "true"
		}
	}
	pod := predictorPod(a)
	pod.Namespace = ""
	if shape&1 != 0 {
		pod.Spec.Containers[0].Name = v1beta1.WorkerContainerName
	}
	if shape&2 != 0 {
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: v1beta1.TransformerContainerName, Image: "t"})
	}
	if shape&4 != 0 {
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: "queue-proxy", Image: "q", Env: []corev1.EnvVar{env("USER_PORT", "8080")}})
	}
	if shape&8 != 0 {
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: "istio-proxy", Image: "i"})
	}
	if shape&16 != 0 {
		pod.Labels[v1beta1.LocalModelLabel] = "cache"
	}
	if shape&32 != 0 {
		pod.Spec.ServiceAccountName = "missing"
	}
	if shape&64 != 0 {
		pod.Spec.Containers = nil
	}
	if shape&128 != 0 {
		pod.Spec.InitContainers = []corev1.Container{{Name: "istio-init", Image: "i"}}
	}
	return pod
}

// FuzzMutatorPatch: for any pod, Handle answers without panicking; when it
// allows the pod, its patch applies cleanly to the request, and handling the
// patched pod again (a reinvocation) yields no patch.
func FuzzMutatorPatch(f *testing.F) {
	seeds := []struct {
		uri   string
		keys  uint32
		value string
		shape uint8
	}{
		{"s3://models/iris", 0, "", 0},
		{"gs://models/iris", 1 << 6, "", 2},
		{"pvc://claim/path", 1 << 4, "false", 2},
		{"oci://registry/model:1", 0, "", 2},
		{"oci+fetch://registry/model:1", 1<<14 | 1<<20 | 1<<21, "", 8},
		{"oci+native://registry/model:1", 0, "", 0},
		{credentials.URIPlaceholder + "iris", 1 | 2, `{"type":"s3","bucket":"b"}`, 0},
		{"hf://org/model", 1<<6 | 1<<9 | 1<<10, "", 4},
		{"s3://models/llama/v1", 1<<18 | 1<<19, "s3://models/llama", 16},
		{"", 1<<11 | 1<<12 | 1<<13, "/mnt/models", 0},
		{"https://x/y", 1 << 3, "default", 1},
		{"s3://m", 0xffffffff, "", 0xff},
	}
	for _, s := range seeds {
		f.Add(s.uri, s.keys, s.value, s.shape)
	}
	lister := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "sklearn", Namespace: testNamespace}}
	m := &Mutator{Reader: cluster(f, lister), SystemNamespace: "kserve"}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, uri string, keys uint32, value string, shape uint8) {
		req := admissionRequest(t, fuzzPod(uri, keys, value, shape))
		resp := m.Handle(ctx, req)
		if !resp.Allowed {
			if resp.Result == nil || resp.Result.Message == "" {
				t.Fatalf("refused without a message: %+v", resp)
			}
			return
		}
		patched := applyPatch(t, req, resp)
		pod := &corev1.Pod{}
		if err := json.Unmarshal(patched, pod); err != nil {
			t.Fatalf("the patched pod does not decode: %v", err)
		}
		req.Object.Raw = patched
		again := m.Handle(ctx, req)
		if !again.Allowed || len(again.Patches) > 0 {
			t.Fatalf("a reinvocation changed the pod: allowed=%v result=%v patches=%v", again.Allowed, again.Result, again.Patches)
		}
	})
}
