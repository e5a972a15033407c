package servingruntime

import (
	"context"
	"errors"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
)

func spec(t *testing.T, s string) *v1alpha1.ServingRuntimeSpec {
	t.Helper()
	out := &v1alpha1.ServingRuntimeSpec{}
	if err := yaml.UnmarshalStrict([]byte(s), out); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return out
}

// Runtimes the table compares against.
const (
	sklearnA  = `{supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 1}], protocolVersions: [v1, v2], containers: [{name: kserve-container, image: a}]}`
	multiNode = `{supportedModelFormats: [{name: huggingface}], containers: [{name: kserve-container, image: h}], workerSpec: {containers: [{name: worker-container, image: w}]}}`
)

// TestValidateRuntime: the table of the runtime rules, the cross-runtime
// priority conflict and workerSpec removal included.
type runtimeCase struct {
	name           string
	config         map[string]string
	spec           string
	others         map[string]string
	field, message string
}

var runtimeCases = []runtimeCase{
	{name: "conflict with another runtime", spec: sklearnA, others: map[string]string{"other": sklearnA},
		field: "spec.supportedModelFormats[0].priority", message: "in the runtimes other and new"},
	{name: "the stored version of itself is no conflict", spec: sklearnA, others: map[string]string{"new": sklearnA}},
	{name: "a disabled runtime is always allowed", others: map[string]string{"other": sklearnA},
		spec: `{disabled: true, supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 1}, {name: sklearn, autoSelect: true, priority: 2}], protocolVersions: [v1], containers: [{name: kserve-container, image: a, env: [{name: PYTHONPATH, value: x}]}]}`},
	{name: "a disabled other runtime is no conflict", spec: sklearnA,
		others: map[string]string{"other": `{disabled: true, supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 1}], protocolVersions: [v1], containers: [{name: c, image: a}]}`}},
	{name: "multi-model and single-model runtimes are not compared", spec: sklearnA,
		others: map[string]string{"mm": `{multiModel: true, supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 1}], protocolVersions: [v1], containers: [{name: c, image: a}]}`}},
	{name: "no protocol in common", spec: sklearnA,
		others: map[string]string{"grpc": `{supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 1}], protocolVersions: [grpc-v1], containers: [{name: c, image: a}]}`}},
	{name: "a runtime without protocols is not compared", spec: sklearnA,
		others: map[string]string{"any": `{supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 1}], containers: [{name: c, image: a}]}`}},
	{name: "another version", spec: sklearnA,
		others: map[string]string{"v2": `{supportedModelFormats: [{name: sklearn, version: "2", autoSelect: true, priority: 1}], protocolVersions: [v1], containers: [{name: c, image: a}]}`}},
	{name: "a versioned and an unversioned entry", spec: sklearnA,
		others: map[string]string{"any": `{supportedModelFormats: [{name: sklearn, autoSelect: true, priority: 1}], protocolVersions: [v1], containers: [{name: c, image: a}]}`}},
	{name: "not auto-selected", spec: sklearnA,
		others: map[string]string{"manual": `{supportedModelFormats: [{name: sklearn, version: "1", priority: 1}], protocolVersions: [v1], containers: [{name: c, image: a}]}`}},
	{name: "another priority", spec: sklearnA,
		others: map[string]string{"second": `{supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 2}], protocolVersions: [v1], containers: [{name: c, image: a}]}`}},
	{name: "no priority on either side",
		spec:   `{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [v1], containers: [{name: c, image: a}]}`,
		others: map[string]string{"other": `{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [v1], containers: [{name: c, image: a}]}`}},
	{name: "one priority for several versions of a format",
		spec: `{supportedModelFormats: [{name: sklearn, version: "1", autoSelect: true, priority: 2}, {name: sklearn, version: "2", autoSelect: true}, {name: sklearn, version: "3", autoSelect: true, priority: 2}], containers: [{name: c, image: a}]}`},
	{name: "workerSpec removed", spec: `{supportedModelFormats: [{name: huggingface}], containers: [{name: kserve-container, image: h}]}`,
		others: map[string]string{"new": multiNode},
		field:  "spec.workerSpec", message: "removing workerSpec where it already exists is not allowed"},
	{name: "workerSpec added", spec: multiNode, others: map[string]string{"new": `{containers: [{name: kserve-container, image: h}]}`}},
	{name: "an empty workerSpec", spec: `{containers: [{name: kserve-container, image: h}], workerSpec: {}}`},
	{name: "GPU types from the config, the MIG prefix and the annotation", config: map[string]string{"multiNode": `{"customGPUResourceTypeList": ["example.com/gpu"]}`},
		spec: `{annotations: {serving.kserve.io/gpu-resource-types: '["vendor.io/npu"]'}, containers: [{name: kserve-container, image: h, resources: {limits: {nvidia.com/mig-3g.20gb: "1", example.com/gpu: "1", cpu: "2", memory: 8Gi}}}],
		  workerSpec: {pipelineParallelSize: 2, tensorParallelSize: 4, containers: [{name: worker-container, image: w, resources: {requests: {vendor.io/npu: "1", ephemeral-storage: 10Gi}}}]}}`},
	{name: "GPU resources are checked on multi-node runtimes only",
		spec: `{containers: [{name: kserve-container, image: h, resources: {limits: {example.com/tpu: "1"}}, env: [{name: TENSOR_PARALLEL_SIZE, value: "2"}]}]}`},
	{name: "PYTHONPATH in a single-node runtime",
		spec:  `{containers: [{name: sidecar, image: s}, {name: kserve-container, image: h, env: [{name: A, value: b}, {name: PYTHONPATH, value: x}]}]}`,
		field: "spec.containers[1].env[1].name", message: "setting PYTHONPATH is not allowed"},
}

func TestValidateRuntime(t *testing.T) {
	for _, tc := range runtimeCases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, keyErrs := config.Parse(tc.config)
			if keyErrs != nil {
				t.Fatal(keyErrs.Err())
			}
			var others []NamedSpec
			for name, s := range tc.others {
				others = append(others, NamedSpec{Name: name, Spec: spec(t, s)})
			}
			errs := ValidateRuntime(spec(t, tc.spec), "new", others, cfg)
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

// TestShippedRuntimesAreValid: every ClusterServingRuntime fsmserve
// installs is accepted next to all the others.
func TestShippedRuntimesAreValid(t *testing.T) {
	docs, err := config.DefaultManifests()
	if err != nil {
		t.Fatal(err)
	}
	var runtimes []NamedSpec
	for _, doc := range docs {
		r := &v1alpha1.ClusterServingRuntime{}
		if err := yaml.Unmarshal(doc, r); err != nil || r.Kind != "ClusterServingRuntime" {
			continue
		}
		runtimes = append(runtimes, NamedSpec{Name: r.Name, Spec: &r.Spec})
	}
	if len(runtimes) < 5 {
		t.Fatalf("found %d shipped runtimes", len(runtimes))
	}
	for _, r := range runtimes {
		if errs := ValidateRuntime(r.Spec, r.Name, runtimes, nil); len(errs) > 0 {
			t.Errorf("%s:\n%s", r.Name, admissioncases.ErrorLines(errs))
		}
	}
}

func TestAdapters(t *testing.T) {
	ctx := context.Background()
	existing := &v1alpha1.ServingRuntime{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns1"},
		Spec: *spec(t, `{supportedModelFormats: [{name: sklearn, autoSelect: true, priority: 1}], protocolVersions: [v1], containers: [{name: c, image: a}]}`)}
	clash := func(name, ns string) *v1alpha1.ServingRuntime {
		r := existing.DeepCopy()
		r.Name, r.Namespace = name, ns
		return r
	}
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(existing).Build()
	v := NewServingRuntimeValidator(&Validator{Client: c})
	if _, err := v.ValidateCreate(ctx, clash("b", "ns1")); !apierrors.IsInvalid(err) {
		t.Fatalf("same namespace: %v", err)
	}
	if _, err := v.ValidateCreate(ctx, clash("b", "ns2")); err != nil {
		t.Fatalf("other namespaces are out of scope: %v", err)
	}
	// A metadata-only update is allowed even though the pair clashes now.
	labelled := clash("b", "ns1")
	labelled.Labels = map[string]string{"x": "y"}
	if _, err := v.ValidateUpdate(ctx, clash("b", "ns1"), labelled); err != nil {
		t.Fatalf("metadata-only update: %v", err)
	}
	deleting := clash("b", "ns1")
	deleting.DeletionTimestamp = &metav1.Time{}
	deleting.Spec.Containers = append(deleting.Spec.Containers, deleting.Spec.Containers[0])
	if _, err := v.ValidateUpdate(ctx, clash("b", "ns1"), deleting); err != nil {
		t.Fatalf("update of a runtime being deleted: %v", err)
	}
	if _, err := v.ValidateDelete(ctx, existing); err != nil {
		t.Fatalf("delete: %v", err)
	}

	cluster := &v1alpha1.ClusterServingRuntime{ObjectMeta: metav1.ObjectMeta{Name: "ca"}, Spec: existing.Spec}
	cv := NewClusterServingRuntimeValidator(&Validator{Client: fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(cluster, existing).Build()})
	other := cluster.DeepCopy()
	other.Name = "cb"
	if _, err := cv.ValidateCreate(ctx, other); !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), `ClusterServingRuntime.serving.kserve.io "cb" is invalid`) {
		t.Fatalf("cluster clash: %v", err)
	}
	if _, err := cv.ValidateCreate(ctx, cluster.DeepCopy()); err != nil {
		t.Fatalf("a cluster runtime is not compared with namespaced ones nor itself: %v", err)
	}

	failing := fake.NewClientBuilder().WithScheme(testScheme(t)).WithInterceptorFuncs(interceptor.Funcs{
		List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
			return errors.New("connection refused")
		},
	}).Build()
	if _, err := NewServingRuntimeValidator(&Validator{Client: failing}).ValidateCreate(ctx, clash("b", "ns1")); !apierrors.IsInternalError(err) {
		t.Fatalf("list failure: %v", err)
	}
	badConfig := &Validator{Client: c, Config: func(context.Context) (*config.Config, *config.Errors, error) {
		cfg, errs := config.Parse(map[string]string{"multiNode": `{"customGPUResourceTypeList": [""]}`})
		return cfg, errs, nil
	}}
	if _, err := NewServingRuntimeValidator(badConfig).ValidateCreate(ctx, clash("b", "ns2")); !apierrors.IsInternalError(err) {
		t.Fatalf("rejected multiNode key: %v", err)
	}
}
