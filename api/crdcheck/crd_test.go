package crdcheck

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"

	"github.com/fsmserve/fsmserve/api/internal/crdpatch"
)

// column is a printer column as name=jsonPath.
type expectation struct {
	plural     string
	scope      apiextensionsv1.ResourceScope
	shortNames []string
	status     bool
	columns    []string
}

const (
	readyPath = ".status.conditions[?(@.type=='Ready')].status"
	statePath = ".status.lifecycle.state"
	agePath   = ".metadata.creationTimestamp"
)

var expected = map[string]expectation{
	"InferenceService": {
		plural: "inferenceservices", scope: apiextensionsv1.NamespaceScoped, shortNames: []string{"isvc"}, status: true,
		columns: []string{
			"URL=.status.url", "Ready=" + readyPath, "State=" + statePath,
			"Prev=.status.components.predictor.traffic[?(@.tag=='prev')].percent",
			"Latest=.status.components.predictor.traffic[?(@.latestRevision==true)].percent",
			"PrevRolledoutRevision=.status.components.predictor.traffic[?(@.tag=='prev')].revisionName",
			"LatestReadyRevision=.status.components.predictor.traffic[?(@.latestRevision==true)].revisionName",
			"Age=" + agePath,
		},
	},
	"ServingRuntime": {
		plural: "servingruntimes", scope: apiextensionsv1.NamespaceScoped,
		columns: []string{"Disabled=.spec.disabled", "ModelType=.spec.supportedModelFormats[*].name", "Containers=.spec.containers[*].name", "Age=" + agePath},
	},
	"ClusterServingRuntime": {
		plural: "clusterservingruntimes", scope: apiextensionsv1.ClusterScoped,
		columns: []string{"Disabled=.spec.disabled", "ModelType=.spec.supportedModelFormats[*].name", "Containers=.spec.containers[*].name", "Age=" + agePath},
	},
	"ClusterStorageContainer": {plural: "clusterstoragecontainers", scope: apiextensionsv1.ClusterScoped},
	"InferenceGraph": {
		plural: "inferencegraphs", scope: apiextensionsv1.NamespaceScoped, shortNames: []string{"ig"}, status: true,
		columns: []string{"URL=.status.url", "Ready=" + readyPath, "State=" + statePath, "Age=" + agePath},
	},
	"LocalModelCache": {
		plural: "localmodelcaches", scope: apiextensionsv1.ClusterScoped, status: true,
		columns: []string{"Available=.status.copies.available", "Total=.status.copies.total", "State=" + statePath, "URI=.spec.sourceModelUri", "Age=" + agePath},
	},
	"LocalModelNamespaceCache": {
		plural: "localmodelnamespacecaches", scope: apiextensionsv1.NamespaceScoped, status: true,
		columns: []string{"Available=.status.copies.available", "Total=.status.copies.total", "State=" + statePath, "URI=.spec.sourceModelUri", "Age=" + agePath},
	},
	"LocalModelNode": {
		plural: "localmodelnodes", scope: apiextensionsv1.ClusterScoped, status: true,
		columns: []string{"Models=.status.modelStatus", "Age=" + agePath},
	},
	"LocalModelNodeGroup": {
		plural: "localmodelnodegroups", scope: apiextensionsv1.ClusterScoped,
		columns: []string{"StorageLimit=.spec.storageLimit", "Age=" + agePath},
	},
}

// TestCRDsDeclareKServeResources checks names, scope, short names, the
// status subresource and the printer columns of every CRD, and that the API
// server would accept each CRD (structural schema, list keys, CEL rules).
func TestCRDsDeclareKServeResources(t *testing.T) {
	crds := loadCRDs(t)
	if len(crds) != len(expected) {
		t.Errorf("%d CRDs, want %d", len(crds), len(expected))
	}
	for kind, want := range expected {
		t.Run(kind, func(t *testing.T) {
			c, ok := crds[kind]
			if !ok {
				t.Fatalf("no CRD for %s", kind)
			}
			spec := c.v1.Spec
			if spec.Group != "serving.kserve.io" || spec.Names.Plural != want.plural || spec.Scope != want.scope {
				t.Errorf("group %s plural %s scope %s", spec.Group, spec.Names.Plural, spec.Scope)
			}
			if c.file != "serving.kserve.io_"+want.plural+".yaml" {
				t.Errorf("file %s", c.file)
			}
			if !reflect.DeepEqual(spec.Names.ShortNames, want.shortNames) {
				t.Errorf("short names %v, want %v", spec.Names.ShortNames, want.shortNames)
			}
			v := spec.Versions[0]
			if !v.Served || !v.Storage {
				t.Errorf("version %s served %v storage %v", v.Name, v.Served, v.Storage)
			}
			hasStatus := v.Subresources != nil && v.Subresources.Status != nil
			if hasStatus != want.status {
				t.Errorf("status subresource %v, want %v", hasStatus, want.status)
			}
			var columns []string
			for _, col := range v.AdditionalPrinterColumns {
				columns = append(columns, col.Name+"="+col.JSONPath)
			}
			if !reflect.DeepEqual(columns, want.columns) {
				t.Errorf("columns\n%v\nwant\n%v", columns, want.columns)
			}
			c.internal.Status.StoredVersions = []string{v.Name}
			if errs := apiextensionsvalidation.ValidateCustomResourceDefinition(context.Background(), c.internal); len(errs) > 0 {
				t.Errorf("the API server would reject the CRD: %v", errs.ToAggregate())
			}
		})
	}
}

// TestSamplesAreAdmitted runs every KServe sample through what the API
// server does on create: nothing may be pruned and validation must pass.
func TestSamplesAreAdmitted(t *testing.T) {
	crds := loadCRDs(t)
	for _, d := range loadSamples(t) {
		t.Run(d.Source+"/"+d.Name(), func(t *testing.T) {
			c, ok := crds[d.Kind]
			if !ok {
				t.Fatalf("no CRD for kind %q", d.Kind)
			}
			if d.APIVersion != c.v1.Spec.Group+"/"+c.v1.Spec.Versions[0].Name {
				t.Fatalf("apiVersion %s", d.APIVersion)
			}
			pruned, errs := c.admit(d.Object, nil)
			if len(pruned) > 0 {
				t.Errorf("pruned: %v", pruned)
			}
			if len(errs) > 0 {
				t.Errorf("rejected: %v", errs.ToAggregate())
			}
		})
	}
}

// TestSchemaRejects shows that the schema checks what KServe's does: the
// admit path above would notice a sample that broke a rule.
func TestSchemaRejects(t *testing.T) {
	crds := loadCRDs(t)
	cases := []struct {
		name, kind, manifest, want string
	}{
		{"unknown field is pruned", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{"predictor":{"sklearn":{"storageUri":"gs://m"},"bogus":1}}}`, "pruned"},
		{"predictor name pattern", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{"predictor":{"name":"Blue_1"}}}`, "spec.predictor.name"},
		{"scale metric enum", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{"predictor":{"scaleMetric":"gpu"}}}`, "spec.predictor.scaleMetric"},
		{"canary percent bound", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{"predictor":{},"canary":[{"trafficPercent":101,"predictor":{"name":"c"}}]}}`, "trafficPercent"},
		{"predictor required", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{}}`, "spec.predictor"},
		{"storageUris mount path", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{"predictor":{"storageUris":[{"uri":"s3://a","mountPath":"rel"}]}}}`, "mountPath"},
		{"metric quantity", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{"predictor":{"autoScaling":{"metrics":[{"type":"External","external":{"metric":{},"target":{"value":"ten"}}}]}}}}`, "value"},
		{"model state enum", "InferenceService", `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"x"},"spec":{"predictor":{}},"status":{"modelStatus":{"transitionStatus":"Done"}}}`, "transitionStatus"},
		{"router type enum", "InferenceGraph", `{"apiVersion":"serving.kserve.io/v1alpha1","kind":"InferenceGraph","metadata":{"name":"x"},"spec":{"nodes":{"root":{"routerType":"Random"}}}}`, "routerType"},
		{"runtime priority minimum", "ServingRuntime", `{"apiVersion":"serving.kserve.io/v1alpha1","kind":"ServingRuntime","metadata":{"name":"x"},"spec":{"containers":[{"name":"c"}],"supportedModelFormats":[{"name":"f","priority":0}]}}`, "priority"},
		{"cache node groups", "LocalModelCache", `{"apiVersion":"serving.kserve.io/v1alpha1","kind":"LocalModelCache","metadata":{"name":"x"},"spec":{"sourceModelUri":"s3://a","modelSize":"1Gi","nodeGroups":[]}}`, "nodeGroups"},
		{"node model status enum", "LocalModelNode", `{"apiVersion":"serving.kserve.io/v1alpha1","kind":"LocalModelNode","metadata":{"name":"x"},"spec":{"localModels":[]},"status":{"modelStatus":{"m":"Done"}}}`, "modelStatus"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var obj map[string]any
			if err := json.Unmarshal([]byte(c.manifest), &obj); err != nil {
				t.Fatal(err)
			}
			pruned, errs := crds[c.kind].admit(obj, nil)
			got := strings.Join(pruned, ",")
			if len(pruned) > 0 {
				got = "pruned " + got
			}
			if len(errs) > 0 {
				got += " " + errs.ToAggregate().Error()
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("got %q, want a complaint about %q", got, c.want)
			}
		})
	}
}

// TestCacheSourceIsImmutable checks the CEL transition rule on sourceModelUri.
func TestCacheSourceIsImmutable(t *testing.T) {
	crds := loadCRDs(t)
	for _, kind := range []string{"LocalModelCache", "LocalModelNamespaceCache"} {
		old := map[string]any{
			"apiVersion": "serving.kserve.io/v1alpha1", "kind": kind,
			"metadata": map[string]any{"name": "m", "namespace": "ns"},
			"spec":     map[string]any{"sourceModelUri": "s3://a", "modelSize": "1Gi", "nodeGroups": []any{"g"}},
		}
		same, _ := json.Marshal(old)
		var updated map[string]any
		_ = json.Unmarshal(same, &updated)
		updated["spec"].(map[string]any)["nodeGroups"] = []any{"g", "h"}
		if _, errs := crds[kind].admit(updated, old); len(errs) > 0 {
			t.Errorf("%s: an update that keeps the URI is rejected: %v", kind, errs.ToAggregate())
		}
		updated["spec"].(map[string]any)["sourceModelUri"] = "s3://b"
		_, errs := crds[kind].admit(updated, old)
		if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), "StorageUri is immutable") {
			t.Errorf("%s: changing the URI gives %v", kind, errs.ToAggregate())
		}
	}
}

// TestCRDSizes keeps every CRD well below etcd's 1.5 MiB request limit. The
// API server stores the CRD compactly (protobuf, about the size of compact
// JSON), and server-side apply adds managedFields of about the same size
// again, so the compact JSON must stay under half the limit with room to grow.
func TestCRDSizes(t *testing.T) {
	const limit = 700 << 10
	for kind, c := range loadCRDs(t) {
		compact, err := json.Marshal(c.v1)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-26s file %8d bytes, compact JSON %7d bytes", kind, c.size, len(compact))
		if len(compact) > limit {
			t.Errorf("%s: %d bytes of compact JSON, limit %d", kind, len(compact), limit)
		}
	}
}

// TestCRDsArePatched fails when the CRDs were generated without crdpatch.
func TestCRDsArePatched(t *testing.T) {
	for kind, c := range loadCRDs(t) {
		raw, err := json.Marshal(c.v1)
		if err != nil {
			t.Fatal(err)
		}
		var generic map[string]any
		if err := json.Unmarshal(raw, &generic); err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(generic)
		if err := crdpatch.Patch(generic); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		after, _ := json.Marshal(generic)
		if string(before) != string(after) {
			t.Errorf("%s: crdpatch still changes the CRD; run make generate", kind)
		}
	}
}
