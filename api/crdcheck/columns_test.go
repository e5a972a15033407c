package crdcheck

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestPrinterColumnsRender renders the samples that carry a status as
// `kubectl get` would (server-side table conversion) and checks the cells.
func TestPrinterColumnsRender(t *testing.T) {
	crds := loadCRDs(t)
	want := map[string]map[string]string{ // sample name -> column -> cell
		"sklearn-iris/status": {
			"URL": "http://sklearn-iris.default.example.com", "Ready": "True", "State": "Serving",
			"Prev": "90", "Latest": "10",
			"PrevRolledoutRevision": "sklearn-iris-predictor-00001", "LatestReadyRevision": "sklearn-iris-predictor-00002",
		},
		"dog-breed-pipeline": {"URL": "http://dog-breed-pipeline.default.example.com", "Ready": "True", "State": "Serving"},
		"qwen-model":         {"Available": "1", "Total": "2", "State": "Downloading"},
		"sklearn-cache":      {"Available": "<nil>", "Total": "1", "State": "Degraded"},
		"minikube-m02":       {"Models": `{"qwen-model":"ModelDownloaded","team-a/sklearn-cache":"ModelDownloading"}`},
		"mlserver-mm":        {"Disabled": "false", "ModelType": "sklearn", "Containers": "mlserver"},
		"qwen-nodegroup":     {"StorageLimit": "1Gi"},
	}
	found := 0
	for _, d := range loadSamples(t) {
		key := d.Name()
		if _, hasStatus := d.Object["status"]; hasStatus && d.Kind == "InferenceService" {
			key += "/status"
		}
		cells, ok := want[key]
		if !ok {
			continue
		}
		found++
		t.Run(key, func(t *testing.T) {
			c := crds[d.Kind]
			conv, err := tableconvertor.New(c.v1.Spec.Versions[0].AdditionalPrinterColumns)
			if err != nil {
				t.Fatal(err)
			}
			table, err := conv.ConvertToTable(context.Background(), &unstructured.Unstructured{Object: d.Object}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(table.Rows) != 1 {
				t.Fatalf("%d rows", len(table.Rows))
			}
			for i, col := range table.ColumnDefinitions {
				w, checked := cells[col.Name]
				if got := fmt.Sprint(table.Rows[0].Cells[i]); checked && got != w {
					t.Errorf("column %s = %q, want %q", col.Name, got, w)
				}
			}
		})
	}
	if found != len(want) {
		t.Errorf("found %d of the %d samples with columns to check", found, len(want))
	}
}
