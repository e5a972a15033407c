package v1beta1

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func ext(uri string) PredictorExtensionSpec {
	return PredictorExtensionSpec{StorageURI: ptr.To(uri)}
}

func env(name, value string) corev1.EnvVar { return corev1.EnvVar{Name: name, Value: value} }

func TestPredictorImplementations(t *testing.T) {
	cases := []struct {
		name      string
		spec      PredictorSpec
		fields    []string
		container string // name of the serving container, when custom
		format    string // "" when there is none
		storage   string // "" when nil
		protocol  InferenceServiceProtocol
	}{
		{name: "nothing", protocol: ProtocolV1},
		{
			name:     "sklearn shorthand",
			spec:     PredictorSpec{SKLearn: &SKLearnSpec{PredictorExtensionSpec: ext("gs://m")}},
			fields:   []string{FieldSKLearn},
			format:   "sklearn",
			storage:  "gs://m",
			protocol: ProtocolV1,
		},
		{
			name: "model with protocol",
			spec: PredictorSpec{Model: &ModelSpec{
				ModelFormat:            ModelFormat{Name: "onnx", Version: ptr.To("1")},
				Runtime:                ptr.To("triton"),
				PredictorExtensionSpec: PredictorExtensionSpec{StorageURI: ptr.To("s3://m"), ProtocolVersion: ptr.To(ProtocolGRPCV2)},
			}},
			fields:   []string{FieldModel},
			format:   "onnx",
			storage:  "s3://m",
			protocol: ProtocolGRPCV2,
		},
		{
			name: "shorthand with sidecar containers stays one implementation",
			spec: PredictorSpec{
				HuggingFace: &HuggingFaceRuntimeSpec{PredictorExtensionSpec: ext("hf://m")},
				PodSpec:     PodSpec{Containers: []corev1.Container{{Name: "sidecar"}}},
			},
			fields:   []string{FieldHuggingFace},
			format:   "huggingface",
			storage:  "hf://m",
			protocol: ProtocolV1,
		},
		{
			name: "two shorthands and a kserve-container are three",
			spec: PredictorSpec{
				XGBoost: &XGBoostSpec{PredictorExtensionSpec: ext("gs://x")},
				Paddle:  &PaddleServerSpec{PredictorExtensionSpec: ext("gs://p")},
				PodSpec: PodSpec{Containers: []corev1.Container{{Name: PredictorContainerName}}},
			},
			fields:   []string{FieldXGBoost, FieldPaddle, FieldContainers},
			format:   "xgboost",
			storage:  "gs://x",
			protocol: ProtocolV1,
		},
		{
			name: "custom kserve-container with STORAGE_URI",
			spec: PredictorSpec{PodSpec: PodSpec{Containers: []corev1.Container{
				{Name: "other"},
				{Name: PredictorContainerName, Env: []corev1.EnvVar{env(StorageURIEnvVar, "pvc://m"), env(ProtocolEnvVar, "v2")}},
			}}},
			fields:    []string{FieldContainers},
			container: PredictorContainerName,
			storage:   "pvc://m",
			protocol:  ProtocolV1, // PROTOCOL is read from the first container
		},
		{
			name: "custom containers without kserve-container: the first serves",
			spec: PredictorSpec{PodSpec: PodSpec{Containers: []corev1.Container{
				{Name: "main", Env: []corev1.EnvVar{env(StorageURIEnvVar, "pvc://m"), env(ProtocolEnvVar, "v2")}},
			}}},
			fields:    []string{FieldContainers},
			container: "main",
			protocol:  ProtocolV2,
		},
		{
			name: "collocated transformer names the protocol",
			spec: PredictorSpec{PodSpec: PodSpec{Containers: []corev1.Container{
				{Name: PredictorContainerName, Env: []corev1.EnvVar{env(ProtocolEnvVar, "v1")}},
				{Name: TransformerContainerName, Env: []corev1.EnvVar{env(ProtocolEnvVar, "v2")}},
			}}},
			fields:    []string{FieldContainers},
			container: PredictorContainerName,
			protocol:  ProtocolV2,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			impls := c.spec.GetImplementations()
			var fields []string
			for _, i := range impls {
				fields = append(fields, i.Field)
			}
			if len(fields) != len(c.fields) {
				t.Fatalf("implementations %v, want %v", fields, c.fields)
			}
			for i := range fields {
				if fields[i] != c.fields[i] {
					t.Fatalf("implementations %v, want %v", fields, c.fields)
				}
			}
			first := c.spec.GetImplementation()
			if (first == nil) != (len(c.fields) == 0) {
				t.Fatalf("GetImplementation() = %v", first)
			}
			if c.container != "" && first.Container.Name != c.container {
				t.Errorf("serving container %q, want %q", first.Container.Name, c.container)
			}
			format, ok := c.spec.GetModelFormat()
			if format.Name != c.format || ok != (c.format != "") {
				t.Errorf("GetModelFormat() = %v, %v; want %q", format, ok, c.format)
			}
			if got := ptr.Deref(c.spec.GetStorageUri(), ""); got != c.storage {
				t.Errorf("GetStorageUri() = %q, want %q", got, c.storage)
			}
			if got := c.spec.GetProtocol(); got != c.protocol {
				t.Errorf("GetProtocol() = %q, want %q", got, c.protocol)
			}
		})
	}
}

func TestImplementationContainerPointsIntoSpec(t *testing.T) {
	spec := PredictorSpec{Tensorflow: &TFServingSpec{PredictorExtensionSpec: ext("gs://m")}}
	spec.GetImplementation().Container.Image = "tf:2"
	if spec.Tensorflow.Image != "tf:2" {
		t.Fatal("changing the implementation's container did not change the spec")
	}
}

func TestGetRuntime(t *testing.T) {
	if got := (&PredictorSpec{}).GetRuntime(); got != "" {
		t.Errorf("no model: %q", got)
	}
	p := PredictorSpec{Model: &ModelSpec{ModelFormat: ModelFormat{Name: "sklearn"}}}
	if got := p.GetRuntime(); got != "" {
		t.Errorf("no runtime: %q", got)
	}
	p.Model.Runtime = ptr.To("kserve-sklearnserver")
	if got := p.GetRuntime(); got != "kserve-sklearnserver" {
		t.Errorf("runtime: %q", got)
	}
}

func TestWorkloadNames(t *testing.T) {
	isvc := &InferenceService{ObjectMeta: metav1.ObjectMeta{Name: "iris"}}
	canary := &CanarySpec{Predictor: PredictorSpec{Name: "candidate"}}
	named := isvc.DeepCopy()
	named.Spec.Predictor.Name = "blue"
	cases := []struct{ got, want string }{
		{isvc.PredictorDeploymentName(), "iris-predictor"},
		{named.PredictorDeploymentName(), "iris-blue-predictor"},
		{isvc.CanaryDeploymentName(canary), "iris-candidate-predictor"},
		{isvc.ComponentDeploymentName(PredictorComponent), "iris-predictor"},
		{named.ComponentDeploymentName(PredictorComponent), "iris-blue-predictor"},
		{isvc.ComponentDeploymentName(TransformerComponent), "iris-transformer"},
		{isvc.ComponentDeploymentName(ExplainerComponent), "iris-explainer"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestIsStopped(t *testing.T) {
	cases := map[string]bool{"true": true, "True": true, "TRUE": true, "false": false, "": false, "yes": false}
	for value, want := range cases {
		isvc := &InferenceService{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{StopAnnotation: value}}}
		if got := isvc.IsStopped(); got != want {
			t.Errorf("stop=%q: IsStopped() = %v", value, got)
		}
	}
	if (&InferenceService{}).IsStopped() {
		t.Error("no annotations: stopped")
	}
}

func TestNormalizeDeploymentMode(t *testing.T) {
	cases := []struct {
		in   string
		want DeploymentMode
		ok   bool
	}{
		{"Standard", Standard, true},
		{"RawDeployment", Standard, true},
		{"Knative", Knative, true},
		{"Serverless", Knative, true},
		{"ModelMesh", ModelMesh, true},
		{"", "", false},
		{"standard", "", false},
	}
	for _, c := range cases {
		got, ok := NormalizeDeploymentMode(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("NormalizeDeploymentMode(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestReadyCondition(t *testing.T) {
	cases := map[ComponentType]string{
		PredictorComponent: "PredictorReady", TransformerComponent: "TransformerReady",
		ExplainerComponent: "ExplainerReady", "other": "",
	}
	for c, want := range cases {
		if got := c.ReadyCondition(); string(got) != want {
			t.Errorf("%s: %q, want %q", c, got, want)
		}
	}
}
