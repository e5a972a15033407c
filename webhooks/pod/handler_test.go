package pod

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

func testScheme(t testing.TB) *runtime.Scheme {
	s := runtime.NewScheme()
	require.NoError(t, clientgoscheme.AddToScheme(s))
	require.NoError(t, v1alpha1.AddToScheme(s))
	require.NoError(t, v1beta1.AddToScheme(s))
	return s
}

// countingReader counts the reads a request costs.
type countingReader struct {
	client.Reader
	gets, lists int
}

func (r *countingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.gets++
	return r.Reader.Get(ctx, key, obj, opts...)
}

func (r *countingReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	r.lists++
	return r.Reader.List(ctx, list, opts...)
}

// cluster holds the shipped ConfigMap and storage container, an account
// with an S3 secret, and the given objects.
func cluster(t testing.TB, objs ...client.Object) client.Reader {
	cm, err := config.DefaultConfigMap()
	require.NoError(t, err)
	csc := defaultStorageContainer(t)
	s3 := secret("s3-creds", map[string]string{"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s"}, map[string]string{v1beta1.S3EndpointAnnotation: "minio:9000"})
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "models-sa", Namespace: testNamespace},
		Secrets: []corev1.ObjectReference{{Name: "s3-creds"}}}
	all := append([]client.Object{cm, &csc, s3, sa}, objs...)
	return fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(all...).Build()
}

func admissionRequest(t testing.TB, pod *corev1.Pod) admission.Request {
	raw, err := json.Marshal(pod)
	require.NoError(t, err)
	return admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		Operation: admissionv1.Create, Namespace: testNamespace, Object: runtime.RawExtension{Raw: raw},
	}}
}

// applyPatch applies the response's patch to the request's pod.
func applyPatch(t testing.TB, req admission.Request, resp admission.Response) []byte {
	ops, err := json.Marshal(resp.Patches)
	require.NoError(t, err)
	patch, err := jsonpatch.DecodePatch(ops)
	require.NoError(t, err)
	out, err := patch.Apply(req.Object.Raw)
	require.NoError(t, err, "the patch must apply to the request's pod")
	return out
}

func TestHandlePatchesAndReinvocation(t *testing.T) {
	m := &Mutator{Reader: cluster(t), SystemNamespace: "kserve"}
	pod := predictorPod(withURI("s3://models/iris"))
	pod.Namespace = "" // as pods of ReplicaSets arrive
	req := admissionRequest(t, pod)
	resp := m.Handle(context.Background(), req)
	require.True(t, resp.Allowed, "%v", resp.Result)
	require.NotEmpty(t, resp.Patches)
	patched := &corev1.Pod{}
	require.NoError(t, json.Unmarshal(applyPatch(t, req, resp), patched))
	assert.Empty(t, patched.Namespace, "the patch leaves the namespace to the API server")
	init := container(t, patched.Spec.InitContainers, v1beta1.StorageInitializerContainerName)
	assert.Equal(t, secretRef("AWS_ACCESS_KEY_ID", "s3-creds", "AWS_ACCESS_KEY_ID"), init.Env[0])
	assert.Contains(t, init.Env, env("S3_ENDPOINT", "minio:9000"))

	again := m.Handle(context.Background(), admissionRequest(t, patched))
	assert.True(t, again.Allowed)
	assert.Empty(t, again.Patches, "a reinvocation adds nothing")
	assert.Nil(t, again.PatchType)
}

func TestHandleResponses(t *testing.T) {
	missingSecretSA := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "broken", Namespace: testNamespace},
		Secrets: []corev1.ObjectReference{{Name: "gone"}}}
	brokenPod := predictorPod(withURI("s3://models/iris"))
	brokenPod.Spec.ServiceAccountName = "broken"
	other := predictorPod(nil)
	delete(other.Labels, v1beta1.InferenceServiceLabel)
	failing := func(context.Context) (*config.Config, *config.Errors, error) {
		return nil, nil, errors.New("etcd is down")
	}
	cases := []struct {
		name     string
		mutator  *Mutator
		req      admission.Request
		allowed  bool
		code     int32
		message  string
		patching bool
	}{
		{name: "not an InferenceService pod", mutator: &Mutator{Reader: cluster(t)}, req: admissionRequest(t, other), allowed: true, message: "not the pod of an InferenceService"},
		{name: "no object", mutator: &Mutator{Reader: cluster(t)}, req: admission.Request{}, allowed: true, message: "no pod in the request"},
		{name: "undecodable", mutator: &Mutator{Reader: cluster(t)}, req: admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{Object: runtime.RawExtension{Raw: []byte("{")}}},
			code: http.StatusBadRequest, message: "decode the pod"},
		{name: "a missing secret is the user's to fix", mutator: &Mutator{Reader: cluster(t, missingSecretSA)}, req: admissionRequest(t, brokenPod),
			code: http.StatusBadRequest, message: `storage initializer: service account "broken" references secret "gone" which does not exist in namespace "models"; create it or remove it from the service account`},
		{name: "configuration that cannot be read", mutator: &Mutator{Reader: cluster(t), Config: failing}, req: admissionRequest(t, predictorPod(nil)),
			code: http.StatusInternalServerError, message: "read inferenceservice-config: etcd is down"},
		{name: "a pod the config only annotates", mutator: &Mutator{Reader: cluster(t)}, req: admissionRequest(t, predictorPod(nil)), allowed: true, patching: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := tc.mutator.Handle(context.Background(), tc.req)
			assert.Equal(t, tc.allowed, resp.Allowed)
			if tc.code != 0 {
				assert.Equal(t, tc.code, resp.Result.Code)
			}
			if tc.message != "" {
				assert.Contains(t, resp.Result.Message, tc.message)
			}
			assert.Equal(t, tc.patching, len(resp.Patches) > 0)
		})
	}
}

func TestMutatorReadsOnlyWhatThePodNeeds(t *testing.T) {
	isvc := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "sklearn", Namespace: testNamespace}}
	isvc.Spec.Predictor.Logger = &v1beta1.LoggerSpec{MarshallerURL: func() *string { s := "http://m.models"; return &s }()}
	cases := []struct {
		name        string
		pod         *corev1.Pod
		gets, lists int
	}{
		// Every request reads the ConfigMap (one get).
		{name: "nothing to inject", pod: predictorPod(nil), gets: 1},
		{name: "s3 download: storage containers, account, secret", pod: predictorPod(withURI("s3://m/iris")), gets: 3, lists: 1},
		{name: "PVC: nothing else", pod: predictorPod(withURI("pvc://claim/iris")), gets: 1},
		{name: "logger: InferenceService and account", pod: predictorPod(loggerAnnotations()), gets: 4},
		{name: "storage spec: the storage-config secret", pod: predictorPod(withURI(credentials.URIPlaceholder+"iris", v1beta1.StorageSpecAnnotation, "true",
			v1beta1.StorageSpecParamAnnotation, `{"type":"s3","bucket":"b"}`)), gets: 2, lists: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &countingReader{Reader: cluster(t, isvc)}
			m := &Mutator{Reader: r, SystemNamespace: "kserve"}
			pod := tc.pod.DeepCopy()
			require.NoError(t, m.Mutate(context.Background(), pod))
			assert.Equal(t, tc.gets, r.gets, "gets")
			assert.Equal(t, tc.lists, r.lists, "lists")
			if tc.name == "logger: InferenceService and account" {
				assert.Contains(t, container(t, pod.Spec.Containers, "agent").Args, "http://m.models", "the InferenceService's logger was read")
			}
		})
	}
}
