package inferenceservice

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// Config documents used by the defaulting table.
const (
	standard      = `{"defaultDeploymentMode": "Standard"}`
	knative       = `{"defaultDeploymentMode": "Serverless"}`
	modelMesh     = `{"defaultDeploymentMode": "ModelMesh"}`
	shippedLimits = `{"resource": {"cpuLimit": "1", "memoryLimit": "2Gi", "cpuRequest": "1", "memoryRequest": "2Gi"}}`
	tokensOn      = `{"autoMountServiceAccountToken": true}`
)

type defaultCase struct {
	name   string
	config map[string]string
	in     string
	want   string
}

var defaultCases = []defaultCase{
	// Step 1: the deployment-mode annotation.
	{name: "legacy RawDeployment is renamed", config: map[string]string{"security": tokensOn},
		in:   `{metadata: {annotations: {serving.kserve.io/deploymentMode: RawDeployment}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`},
	{name: "legacy Serverless is renamed", config: map[string]string{"security": tokensOn},
		in:   `{metadata: {annotations: {serving.kserve.io/deploymentMode: Serverless}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Knative}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`},
	{name: "absent annotation gets the Standard default", config: map[string]string{"security": tokensOn, "deploy": standard},
		in:   `{spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`},
	{name: "a Knative default leaves the annotation absent", config: map[string]string{"security": tokensOn, "deploy": knative},
		in:   `{spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`,
		want: `{spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`},
	{name: "a ModelMesh default is added and leaves the predictor alone", config: map[string]string{"security": tokensOn, "deploy": modelMesh},
		in:   `{spec: {predictor: {sklearn: {storageUri: s3://m}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: ModelMesh}}, spec: {predictor: {sklearn: {storageUri: s3://m}}}}`},
	{name: "the mode recorded in status wins over the default", config: map[string]string{"security": tokensOn, "deploy": knative},
		in:   `{spec: {predictor: {containers: [{name: kserve-container, image: i}]}}, status: {deploymentMode: RawDeployment}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}, status: {deploymentMode: RawDeployment}}`},
	{name: "a Knative status is not stamped", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {containers: [{name: kserve-container, image: i}]}}, status: {deploymentMode: Knative}}`,
		want: `{spec: {predictor: {containers: [{name: kserve-container, image: i}]}}, status: {deploymentMode: Knative}}`},
	{name: "an unknown mode is left for the validator", config: map[string]string{"security": tokensOn},
		in:   `{metadata: {annotations: {serving.kserve.io/deploymentMode: Raw}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Raw}}, spec: {predictor: {containers: [{name: kserve-container, image: i}]}}}`},
	// Step 2: shorthands, protocols and the modelFormat annotation.
	{name: "sklearn becomes model with its whole extension", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {sklearn: {storageUri: s3://m, runtimeVersion: "1.3", args: [--x], env: [{name: A, value: b}]}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {model: {modelFormat: {name: sklearn}, storageUri: s3://m, runtimeVersion: "1.3", args: [--x], env: [{name: A, value: b}]}}}}`},
	{name: "triton gets v2", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {triton: {storageUri: s3://m}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: triton}}, spec: {predictor: {model: {modelFormat: {name: triton}, protocolVersion: v2, storageUri: s3://m}}}}`},
	{name: "huggingface gets v2", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {huggingface: {args: [--model_id=x]}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: huggingface}}, spec: {predictor: {model: {modelFormat: {name: huggingface}, protocolVersion: v2, args: [--model_id=x]}}}}`},
	{name: "onnx keeps an explicit v1", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {onnx: {protocolVersion: v1, storageUri: s3://m}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: onnx}}, spec: {predictor: {model: {modelFormat: {name: onnx}, protocolVersion: v1, storageUri: s3://m}}}}`},
	{name: "model vLLM gets v2", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {model: {modelFormat: {name: vLLM}, storageUri: hf://m}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: vLLM}}, spec: {predictor: {model: {modelFormat: {name: vLLM}, protocolVersion: v2, storageUri: hf://m}}}}`},
	{name: "a user's modelFormat annotation is kept", config: map[string]string{"security": tokensOn},
		in:   `{metadata: {annotations: {modelFormat: custom}}, spec: {predictor: {pmml: {storageUri: s3://m}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: custom}}, spec: {predictor: {model: {modelFormat: {name: pmml}, storageUri: s3://m}}}}`},
	{name: "two shorthands are left for the validator", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {sklearn: {storageUri: s3://a}, xgboost: {storageUri: s3://b}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {sklearn: {storageUri: s3://a}, xgboost: {storageUri: s3://b}}}}`},
	{name: "model gets no default resources (the runtime sizes it)", config: map[string]string{"security": tokensOn, "inferenceService": shippedLimits},
		in:   `{spec: {predictor: {lightgbm: {storageUri: s3://m}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: lightgbm}}, spec: {predictor: {model: {modelFormat: {name: lightgbm}, storageUri: s3://m}}}}`},
	// Step 3: container names and default resources.
	{name: "the only custom container becomes kserve-container with resources", config: map[string]string{"security": tokensOn, "inferenceService": shippedLimits},
		in:   `{spec: {predictor: {containers: [{name: server, image: i}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{name: kserve-container, image: i, resources: {requests: {cpu: "1", memory: 2Gi}, limits: {cpu: "1", memory: 2Gi}}}]}}}`},
	{name: "an unnamed first container of several is named", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {containers: [{image: i}, {name: sidecar, image: s}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{name: kserve-container, image: i}, {name: sidecar, image: s}]}}}`},
	{name: "a named first container of several keeps its name", config: map[string]string{"security": tokensOn, "inferenceService": `{"resource": {"cpuRequest": "100m"}}`},
		in:   `{spec: {predictor: {containers: [{name: main, image: i}, {name: sidecar, image: s}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{name: main, image: i, resources: {requests: {cpu: 100m}}}, {name: sidecar, image: s}]}}}`},
	{name: "no second kserve-container is made", config: map[string]string{"security": tokensOn, "inferenceService": `{"resource": {"memoryLimit": "1Gi"}}`},
		in:   `{spec: {predictor: {containers: [{image: helper}, {name: kserve-container, image: i}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{image: helper}, {name: kserve-container, image: i, resources: {limits: {memory: 1Gi}}}]}}}`},
	{name: "cpu and memory are filled separately and never cross a user's own bound", config: map[string]string{"security": tokensOn, "inferenceService": shippedLimits},
		in:   `{spec: {predictor: {containers: [{name: kserve-container, image: i, resources: {limits: {cpu: 500m}, requests: {memory: 4Gi}}}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard}}, spec: {predictor: {containers: [{name: kserve-container, image: i, resources: {limits: {cpu: 500m, memory: 4Gi}, requests: {cpu: 500m, memory: 4Gi}}}]}}}`},
	{name: "a transformer's first container is named and sized", config: map[string]string{"security": tokensOn, "inferenceService": `{"resource": {"cpuLimit": "2"}}`},
		in:   `{spec: {predictor: {model: {modelFormat: {name: sklearn}}}, transformer: {containers: [{name: t, image: t}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {model: {modelFormat: {name: sklearn}}}, transformer: {containers: [{name: kserve-container, image: t, resources: {limits: {cpu: "2"}}}]}}}`},
	{name: "art gets the container name, the default version and resources", config: map[string]string{"security": tokensOn, "inferenceService": `{"resource": {"memoryRequest": "1Gi"}}`},
		in:   `{spec: {predictor: {model: {modelFormat: {name: sklearn}}}, explainer: {art: {type: SquareAttack}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {model: {modelFormat: {name: sklearn}}}, explainer: {art: {type: SquareAttack, name: kserve-container, runtimeVersion: latest, resources: {requests: {memory: 1Gi}}}}}}`},
	{name: "a custom explainer's first container is named", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {model: {modelFormat: {name: sklearn}}}, explainer: {containers: [{name: e, image: e}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {model: {modelFormat: {name: sklearn}}}, explainer: {containers: [{name: kserve-container, image: e}]}}}`},
	{name: "art next to containers is left for the validator", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {model: {modelFormat: {name: sklearn}}}, explainer: {art: {type: SquareAttack}, containers: [{name: e, image: e}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {model: {modelFormat: {name: sklearn}}}, explainer: {art: {type: SquareAttack}, containers: [{name: e, image: e}]}}}`},
	// Step 5: automountServiceAccountToken.
	{name: "token automount off where unset", config: map[string]string{"security": `{"autoMountServiceAccountToken": false}`},
		in:   `{spec: {predictor: {automountServiceAccountToken: true, model: {modelFormat: {name: sklearn}}}, transformer: {containers: [{name: kserve-container, image: t}]}, explainer: {containers: [{name: kserve-container, image: e}]}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {automountServiceAccountToken: true, model: {modelFormat: {name: sklearn}}}, transformer: {automountServiceAccountToken: false, containers: [{name: kserve-container, image: t}]}, explainer: {automountServiceAccountToken: false, containers: [{name: kserve-container, image: e}]}}}`},
	{name: "the built-in security config turns automount off", config: nil,
		in:   `{spec: {predictor: {model: {modelFormat: {name: sklearn}}}}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {automountServiceAccountToken: false, model: {modelFormat: {name: sklearn}}}}}`},
	{name: "canaries are not defaulted", config: map[string]string{"security": tokensOn},
		in:   `{spec: {predictor: {model: {modelFormat: {name: sklearn}}}, canary: [{trafficPercent: 10, predictor: {name: v2, sklearn: {storageUri: s3://v2}}}]}}`,
		want: `{metadata: {annotations: {serving.kserve.io/deploymentMode: Standard, modelFormat: sklearn}}, spec: {predictor: {model: {modelFormat: {name: sklearn}}}, canary: [{trafficPercent: 10, predictor: {name: v2, sklearn: {storageUri: s3://v2}}}]}}`},
}

func TestDefault(t *testing.T) {
	for _, tc := range defaultCases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, errs := config.Parse(tc.config)
			if errs != nil {
				t.Fatalf("config: %v", errs.Err())
			}
			got, want := parseISVC(t, tc.in), parseISVC(t, tc.want)
			Default(got, cfg)
			if !equality.Semantic.DeepEqual(got, want) {
				t.Fatalf("got\n%s\nwant\n%s", toYAML(t, got), toYAML(t, want))
			}
			again := got.DeepCopy()
			Default(again, cfg)
			if !equality.Semantic.DeepEqual(again, got) {
				t.Fatalf("defaulting twice differs from once:\n%s", toYAML(t, again))
			}
		})
	}
}

func TestDefaultNilConfigIsTheBuiltIn(t *testing.T) {
	a := parseISVC(t, `{spec: {predictor: {sklearn: {storageUri: s3://m}}}}`)
	b := a.DeepCopy()
	Default(a, nil)
	Default(b, config.Default())
	if !equality.Semantic.DeepEqual(a, b) {
		t.Fatalf("nil config: %s\nbuilt-in: %s", toYAML(t, a), toYAML(t, b))
	}
}

func parseISVC(t *testing.T, s string) *v1beta1.InferenceService {
	t.Helper()
	isvc := &v1beta1.InferenceService{}
	if err := yaml.UnmarshalStrict([]byte(s), isvc); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return isvc
}

func toYAML(t *testing.T, v any) string {
	t.Helper()
	out, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
