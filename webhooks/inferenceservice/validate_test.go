package inferenceservice

import (
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"strings"
	"testing"

	"github.com/fsmserve/fsmserve/config"
)

// TestValidateRules covers rules the YAML cases cannot reach through an API
// server (the CRD schema answers first) and the cases that must pass.
type ruleCase struct {
	name   string
	config map[string]string
	caps   Capabilities
	in     string
	// field and message of the expected error; empty field = valid.
	field, message string
}

var ruleCases = []ruleCase{
	{name: "logger mode outside the enum", caps: CurrentCapabilities(),
		in:    `{metadata: {name: a}, spec: {predictor: {logger: {mode: everything}, sklearn: {storageUri: s3://m}}}}`,
		field: "spec.predictor.logger.mode", message: `Unsupported value: "everything"`},
	{name: "logger without mode means all", caps: CurrentCapabilities(),
		in: `{metadata: {name: a}, spec: {predictor: {logger: {url: "http://sink"}, sklearn: {storageUri: s3://m}}}}`},
	{name: "storageUris entry without uri", caps: CurrentCapabilities(),
		in:    `{metadata: {name: a}, spec: {predictor: {model: {modelFormat: {name: hf}}, storageUris: [{uri: ""}]}}}`,
		field: "spec.predictor.storageUris[0].uri", message: "set the URI of the artifact"},
	{name: "storageUris relative mount path", caps: CurrentCapabilities(),
		in:    `{metadata: {name: a}, spec: {predictor: {model: {modelFormat: {name: hf}}, storageUris: [{uri: s3://a, mountPath: models}]}}}`,
		field: "spec.predictor.storageUris[0].mountPath", message: "must be an absolute path"},
	{name: "storageUris default mount path shares a parent", caps: CurrentCapabilities(),
		in: `{metadata: {name: a}, spec: {predictor: {model: {modelFormat: {name: hf}}, storageUris: [{uri: s3://a}, {uri: s3://b, mountPath: /mnt/models/b}]}}}`},
	{name: "one PVC and one download need no common parent", caps: CurrentCapabilities(),
		in: `{metadata: {name: a}, spec: {predictor: {model: {modelFormat: {name: hf}}, storageUris: [{uri: pvc://a/b, mountPath: /data}, {uri: s3://b, mountPath: /mnt/models}]}}}`},
	{name: "unknown metric source type", caps: CurrentCapabilities(),
		in:    `{metadata: {name: a}, spec: {predictor: {autoScaling: {metrics: [{type: Pods}]}, sklearn: {storageUri: s3://m}}}}`,
		field: "spec.predictor.autoScaling.metrics[0].type", message: `Unsupported value: "Pods"`},
	{name: "unknown resource metric", caps: CurrentCapabilities(),
		in:    `{metadata: {name: a}, spec: {predictor: {autoScaling: {metrics: [{type: Resource, resource: {name: gpu, target: {type: Utilization, averageUtilization: 5}}}]}, sklearn: {storageUri: s3://m}}}}`,
		field: "spec.predictor.autoScaling.metrics[0].resource.name", message: `Unsupported value: "gpu"`},
	{name: "hpa cpu metric without a target uses the default", caps: CurrentCapabilities(),
		in: `{metadata: {name: a}, spec: {predictor: {autoScaling: {metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization}}}]}, sklearn: {storageUri: s3://m}}}}`},
	{name: "hpa memory utilization within 1..100", caps: CurrentCapabilities(),
		in: `{metadata: {name: a}, spec: {predictor: {scaleMetric: memory, scaleTarget: 80, sklearn: {storageUri: s3://m}}}}`},
	{name: "external class checks no scaling field", caps: CurrentCapabilities(),
		in: `{metadata: {name: a, annotations: {serving.kserve.io/autoscalerClass: external}}, spec: {predictor: {scaleMetric: concurrency, scaleTarget: 500, sklearn: {storageUri: s3://m}}}}`},
	{name: "a predictor annotation overrides the class", caps: CurrentCapabilities(),
		in:    `{metadata: {name: a, annotations: {serving.kserve.io/autoscalerClass: none}}, spec: {predictor: {annotations: {serving.kserve.io/autoscalerClass: hpa}, scaleMetric: rps, sklearn: {storageUri: s3://m}}}}`,
		field: "spec.predictor.scaleMetric", message: "the hpa autoscaler scales on cpu or memory"},
	{name: "configured Knative default without annotation", caps: CurrentCapabilities(), config: map[string]string{"deploy": `{"defaultDeploymentMode": "Knative"}`},
		in:    `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://m}}}}`,
		field: "metadata.annotations[serving.kserve.io/deploymentMode]", message: "the configured default deployment mode Knative (inferenceservice-config key deploy)"},
	{name: "Knative recorded in status", caps: CurrentCapabilities(),
		in:    `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://m}}}, status: {deploymentMode: Knative}}`,
		field: "metadata.annotations[serving.kserve.io/deploymentMode]", message: "delete the InferenceService and create it again"},
	{name: "Knative mode runs Knative's rules", caps: AllCapabilities(),
		in: `{metadata: {name: a, annotations: {serving.kserve.io/deploymentMode: Knative}}, spec: {predictor: {scaleMetric: concurrency, scaleTarget: 500, containerConcurrency: 4, canaryTrafficPercent: 10, sklearn: {storageUri: s3://m}}}}`},
	{name: "keda with a complete set of metrics", caps: AllCapabilities(),
		in: `{metadata: {name: a, annotations: {serving.kserve.io/autoscalerClass: keda}}, spec: {predictor: {minReplicas: 0, autoScaling: {behavior: {scaleDown: {stabilizationWindowSeconds: 60}}, metrics: [
		  {type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 1Gi}}},
		  {type: External, external: {metric: {backend: prometheus, query: up}, target: {type: Value, value: 5}}},
		  {type: PodMetric, podmetric: {metric: {backend: opentelemetry, query: q}, target: {type: Value, value: "1.5"}}}]}, sklearn: {storageUri: s3://m}}}}`},
	{name: "multi-node with known GPU types", caps: AllCapabilities(), config: map[string]string{"multiNode": `{"customGPUResourceTypeList": ["example.com/gpu"]}`},
		in: `{metadata: {name: a, annotations: {serving.kserve.io/autoscalerClass: none, serving.kserve.io/gpu-resource-types: '["vendor.io/npu"]'}}, spec: {predictor: {
		  model: {modelFormat: {name: huggingface}, storageUri: oci://registry/llama, resources: {limits: {nvidia.com/gpu: "1", nvidia.com/mig-1g.5gb: "1", example.com/gpu: "1", vendor.io/npu: "1", cpu: "4"}}},
		  workerSpec: {pipelineParallelSize: 2, tensorParallelSize: 1, containers: [{name: worker-container, image: w, resources: {limits: {amd.com/gpu: "1", ephemeral-storage: 1Gi}}}]}}}}`},
	{name: "transformer and explainer run when supported", caps: AllCapabilities(),
		in: `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://m}}, transformer: {containers: [{name: kserve-container, image: t}]}, explainer: {art: {type: SquareAttack, storageUri: s3://e, storage: {key: k}}}}}`},
	{name: "canaries that follow the rules", caps: AllCapabilities(),
		in: `{metadata: {name: a}, spec: {predictor: {minReplicas: 2, sklearn: {storageUri: s3://v1}}, canary: [{trafficPercent: 40, predictor: {name: v2, minReplicas: 1, sklearn: {storageUri: s3://v2}}}, {trafficPercent: 60, predictor: {name: v3, sklearn: {storageUri: s3://v3}}}]}}`},
	{name: "no capabilities at all", caps: Capabilities{},
		in:    `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://m}}}}`,
		field: "metadata.annotations[serving.kserve.io/deploymentMode]", message: "which runs none"},
}

func TestValidateRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, keyErrs := config.Parse(tc.config)
			if keyErrs != nil {
				t.Fatal(keyErrs.Err())
			}
			isvc := parseISVC(t, tc.in)
			Default(isvc, cfg)
			errs := Validate(isvc, cfg, tc.caps)
			if tc.field == "" {
				if len(errs) > 0 {
					t.Fatalf("rejected:\n%s", admissioncases.ErrorLines(errs))
				}
				return
			}
			if !admissioncases.HasError(errs, tc.field, tc.message) || len(errs) != 1 {
				t.Fatalf("want only an error at %s containing %q, got:\n%s", tc.field, tc.message, admissioncases.ErrorLines(errs))
			}
		})
	}
}

func TestValidateUpdateRules(t *testing.T) {
	const (
		plain       = `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://v1}}}, status: {deploymentMode: Standard}}`
		transformer = `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://v1}}, transformer: {containers: [{image: t}]}}}`
	)
	for _, tc := range []struct {
		name, old, new string
		field, message string
	}{
		{name: "metadata-only update of an object the rules now reject",
			old: transformer, new: `{metadata: {name: a, labels: {team: x}, finalizers: [f], annotations: {note: n}}, spec: {predictor: {sklearn: {storageUri: s3://v1}}, transformer: {containers: [{image: t}]}}}`},
		{name: "a spec change re-validates it",
			old: transformer, new: `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://v2}}, transformer: {containers: [{image: t}]}}}`,
			field: "spec.transformer", message: "not available"},
		{name: "a validated annotation change re-validates it",
			old: transformer, new: `{metadata: {name: a, annotations: {serving.kserve.io/autoscalerClass: none}}, spec: {predictor: {sklearn: {storageUri: s3://v1}}, transformer: {containers: [{image: t}]}}}`,
			field: "spec.transformer", message: "not available"},
		{name: "renaming with a new model is a promotion",
			old: plain, new: `{metadata: {name: a}, spec: {predictor: {name: v2, sklearn: {storageUri: s3://v2}}}}`},
		{name: "renaming to the old name with storageUris changed",
			old: `{metadata: {name: a}, spec: {predictor: {name: v1, model: {modelFormat: {name: hf}}, storageUris: [{uri: s3://a}]}}}`,
			new: `{metadata: {name: a}, spec: {predictor: {model: {modelFormat: {name: hf}}, storageUris: [{uri: s3://b}]}}}`},
		{name: "the mode may be set while status has none",
			old: `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://v1}}}}`,
			new: `{metadata: {name: a, annotations: {serving.kserve.io/deploymentMode: RawDeployment}}, spec: {predictor: {sklearn: {storageUri: s3://v1}}}}`},
		{name: "dropping the annotation keeps the recorded mode",
			old: plain, new: `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://v1}, minReplicas: 2}}}`},
		{name: "an unknown mode on update",
			old: plain, new: `{metadata: {name: a, annotations: {serving.kserve.io/deploymentMode: Bogus}}, spec: {predictor: {sklearn: {storageUri: s3://v1}}}}`,
			field: "metadata.annotations[serving.kserve.io/deploymentMode]", message: "cannot be changed from Standard to Bogus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			old, new := parseISVC(t, tc.old), parseISVC(t, tc.new)
			Default(old, cfg)
			Default(new, cfg)
			new.Status = old.Status
			errs := ValidateUpdate(old, new, cfg, CurrentCapabilities())
			if tc.field == "" {
				if len(errs) > 0 {
					t.Fatalf("rejected:\n%s", admissioncases.ErrorLines(errs))
				}
				return
			}
			if !admissioncases.HasError(errs, tc.field, tc.message) {
				t.Fatalf("want an error at %s containing %q, got:\n%s", tc.field, tc.message, admissioncases.ErrorLines(errs))
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	for _, tc := range []struct{ uri, want string }{
		{"oci://registry/model", "no effect with oci://"},
		{"pvc://claim/model", "no effect with pvc://"},
		{"s3://bucket/model", ""},
	} {
		isvc := parseISVC(t, `{metadata: {name: a}, spec: {predictor: {model: {modelFormat: {name: sklearn}, confidential: {enabled: true}, storageUri: "`+tc.uri+`"}}}}`)
		got := strings.Join(Warnings(isvc), "\n")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: warnings %q, want %q", tc.uri, got, tc.want)
		}
		if errs := Validate(isvc, nil, CurrentCapabilities()); len(errs) > 0 {
			t.Errorf("%s: a warning case is rejected: %v", tc.uri, errs)
		}
	}
}

func TestCommonParent(t *testing.T) {
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{"/mnt/models/a", "/mnt/models/b"}, "/mnt/models"},
		{[]string{"/mnt/models", "/mnt/models/b"}, "/mnt/models"},
		{[]string{"/mnt/a", "/opt/b"}, "/"},
		{[]string{"/", "/mnt"}, "/"},
		{[]string{"/mnt/models/", "/mnt/models"}, "/mnt/models"},
	} {
		if got := commonParent(tc.paths); got != tc.want {
			t.Errorf("commonParent(%v) = %q, want %q", tc.paths, got, tc.want)
		}
	}
}

func TestLongNamesCountEveryService(t *testing.T) {
	// 52 characters: {name}-predictor fits in 63, {name}-transformer does not.
	const name = "a-name-of-fifty-two-characters-abcdefghijklmnopqrstu"
	isvc := parseISVC(t, `{metadata: {name: `+name+`}, spec: {predictor: {sklearn: {storageUri: s3://m}}, transformer: {containers: [{name: kserve-container, image: t}]}}}`)
	if errs := Validate(isvc, nil, AllCapabilities()); !admissioncases.HasError(errs, "metadata.name", name+`-transformer" would have 64 characters`) {
		t.Fatalf("got:\n%s", admissioncases.ErrorLines(errs))
	}
	isvc.Spec.Transformer = nil
	if errs := Validate(isvc, nil, AllCapabilities()); len(errs) > 0 {
		t.Fatalf("without the transformer:\n%s", admissioncases.ErrorLines(errs))
	}
}
