package webhooks_test

import (
	"context"
	"encoding/json"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// invalidCase is one entry of the invalid-manifest tables the admission
// packages keep in testdata (see webhooks/inferenceservice/testdata/invalid.yaml).
type invalidCase = admissioncases.Invalid

func object(t *testing.T, raw json.RawMessage, ns string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal(raw, &u.Object); err != nil {
		t.Fatal(err)
	}
	if ns != "" && !clusterScoped[u.GetKind()] {
		u.SetNamespace(ns)
	}
	// The local model tables name their namespace "cases" in the namespace
	// cache label; here each case has a namespace of its own.
	if l := u.GetLabels(); ns != "" && l[localModelNamespaceLabel] == "cases" {
		l[localModelNamespaceLabel] = ns
		u.SetLabels(l)
	}
	return u
}

const localModelNamespaceLabel = "internal.serving.kserve.io/localmodel-namespace"

// clusterScoped are the kinds the cases name that have no namespace.
var clusterScoped = map[string]bool{
	"ClusterServingRuntime": true, "ClusterStorageContainer": true,
	"LocalModelCache": true, "LocalModelNodeGroup": true, "LocalModelNode": true,
}

// expectRejected runs one case through the API server and checks the
// webhook's answer names the field and says what to fix.
func expectRejected(t *testing.T, c invalidCase) {
	t.Helper()
	ctx := context.Background()
	ns := newNamespace(t)
	obj := object(t, c.Object, ns)
	if c.Operation == "DELETE" {
		// Registered first, so it runs last: once the users in Existing are
		// gone, the object whose deletion was refused can go too.
		t.Cleanup(func() { _ = cluster.Delete(context.Background(), obj) })
	}
	for _, e := range c.Existing {
		obj := object(t, e, ns)
		if err := cluster.Create(ctx, obj); err != nil {
			t.Fatalf("creating %s first: %v", obj.GetName(), err)
		}
		t.Cleanup(func() { _ = cluster.Delete(context.Background(), obj) })
	}
	var err error
	switch c.Operation {
	case "UPDATE":
		err = update(t, ctx, object(t, c.Old, ns), obj)
	case "DELETE":
		err = deleteStored(t, ctx, obj)
	default:
		err = cluster.Create(ctx, obj)
		if err == nil {
			t.Cleanup(func() { _ = cluster.Delete(context.Background(), obj) })
		}
	}
	if err == nil {
		t.Fatalf("admitted; want a rejection naming %s (%q)", c.Field, c.Message)
	}
	msg := err.Error()
	if !strings.Contains(msg, c.Field) || !strings.Contains(msg, c.Message) {
		t.Fatalf("rejected, but the answer does not name %s with %q:\n%s", c.Field, c.Message, msg)
	}
}

// deleteStored stores obj, then deletes it.
func deleteStored(t *testing.T, ctx context.Context, obj *unstructured.Unstructured) error {
	t.Helper()
	if err := cluster.Create(ctx, obj); err != nil {
		t.Fatalf("creating the object to delete: %v", err)
	}
	return cluster.Delete(ctx, obj)
}

// update stores old (and its status, when it has one), then replaces it with obj.
func update(t *testing.T, ctx context.Context, old, obj *unstructured.Unstructured) error {
	t.Helper()
	status, hasStatus := old.Object["status"]
	if err := cluster.Create(ctx, old); err != nil {
		t.Fatalf("creating the stored object: %v", err)
	}
	t.Cleanup(func() { _ = cluster.Delete(context.Background(), old) })
	if hasStatus {
		old.Object["status"] = status
		if err := cluster.Status().Update(ctx, old); err != nil {
			t.Fatalf("writing the stored status: %v", err)
		}
	}
	obj.SetResourceVersion(old.GetResourceVersion())
	return cluster.Update(ctx, obj)
}

var _ client.Object = (*unstructured.Unstructured)(nil)
