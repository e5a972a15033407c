package devcluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"
)

// FieldManager owns the fields the dev cluster applies.
const FieldManager = "fsmserve-dev"

var (
	crdGVR       = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	namespaceGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

// ApplyManifests server-side applies multi-document YAML (or JSON) to the
// cluster, creating namespaces as needed. Namespaces and CRDs go first, and
// objects of a kind a CRD defines wait until that CRD is Established.
func (c *Cluster) ApplyManifests(ctx context.Context, docs ...[]byte) error {
	return ApplyManifests(ctx, c.RESTConfig(), docs...)
}

// ApplyManifests is Cluster.ApplyManifests for any cluster.
func ApplyManifests(ctx context.Context, cfg *rest.Config, docs ...[]byte) error {
	objs, err := decodeManifests(docs)
	if err != nil {
		return err
	}
	a, err := newApplier(cfg)
	if err != nil {
		return err
	}
	first, rest := splitFirst(objs)
	for _, obj := range first {
		if err := a.apply(ctx, obj); err != nil {
			return err
		}
	}
	if err := a.waitCRDsEstablished(ctx, first); err != nil {
		return err
	}
	for _, obj := range rest {
		if err := a.apply(ctx, obj); err != nil {
			return err
		}
	}
	return nil
}

// decodeManifests splits every document into objects, flattening kind: List.
func decodeManifests(docs [][]byte) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	for i, doc := range docs {
		reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(doc)))
		for part := 1; ; part++ {
			raw, err := reader.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("manifest %d, document %d: %w", i+1, part, err)
			}
			objs, err := decodeObject(raw)
			if err != nil {
				return nil, fmt.Errorf("manifest %d, document %d: %w", i+1, part, err)
			}
			out = append(out, objs...)
		}
	}
	return out, nil
}

func decodeObject(raw []byte) ([]*unstructured.Unstructured, error) {
	data, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 || string(bytes.TrimSpace(data)) == "null" {
		return nil, nil // an empty or comment-only document
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("not a Kubernetes object (needs apiVersion and kind): %w", err)
	}
	if obj.IsList() {
		var items []*unstructured.Unstructured
		err := obj.EachListItem(func(o runtime.Object) error {
			items = append(items, o.(*unstructured.Unstructured))
			return nil
		})
		return items, err
	}
	if obj.GetName() == "" {
		return nil, fmt.Errorf("%s has no metadata.name (server-side apply needs one)", obj.GetKind())
	}
	return []*unstructured.Unstructured{obj}, nil
}

// splitFirst separates Namespaces and CRDs, which other objects may need,
// from everything else, keeping the order within each group.
func splitFirst(objs []*unstructured.Unstructured) (first, rest []*unstructured.Unstructured) {
	for _, o := range objs {
		gk := o.GroupVersionKind().GroupKind()
		if gk == (schema.GroupKind{Kind: "Namespace"}) || gk == (schema.GroupKind{Group: crdGVR.Group, Kind: "CustomResourceDefinition"}) {
			first = append(first, o)
		} else {
			rest = append(rest, o)
		}
	}
	return first, rest
}

type applier struct {
	dyn        dynamic.Interface
	mapper     *restmapper.DeferredDiscoveryRESTMapper
	namespaces map[string]bool
}

func newApplier(cfg *rest.Config) (*applier, error) {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating dynamic client: %w", err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating discovery client: %w", err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	return &applier{dyn: dyn, mapper: mapper, namespaces: map[string]bool{}}, nil
}

func (a *applier) apply(ctx context.Context, obj *unstructured.Unstructured) error {
	gvk := obj.GroupVersionKind()
	what := fmt.Sprintf("%s %s", gvk.Kind, objectKey(obj))
	mapping, err := a.mapping(ctx, gvk)
	if err != nil {
		return fmt.Errorf("applying %s: %w", what, err)
	}
	obj = obj.DeepCopy()
	obj.SetManagedFields(nil)
	obj.SetResourceVersion("")
	var res dynamic.ResourceInterface = a.dyn.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if obj.GetNamespace() == "" {
			obj.SetNamespace(metav1.NamespaceDefault)
		}
		if err := a.ensureNamespace(ctx, obj.GetNamespace()); err != nil {
			return err
		}
		res = a.dyn.Resource(mapping.Resource).Namespace(obj.GetNamespace())
	}
	_, err = res.Apply(ctx, obj.GetName(), obj, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	if err != nil {
		return fmt.Errorf("applying %s: %w", what, err)
	}
	return nil
}

// mapping resolves a kind, refreshing discovery for a while when the kind is
// unknown: a CRD just established takes a moment to appear in discovery.
func (a *applier) mapping(ctx context.Context, gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		mapping, err := a.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err == nil {
			return mapping, nil
		}
		if !meta.IsNoMatchError(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("the cluster does not serve %s (is its CRD in the manifests?): %w", gvk, err)
		}
		a.mapper.Reset()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func (a *applier) ensureNamespace(ctx context.Context, name string) error {
	if a.namespaces[name] {
		return nil
	}
	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName(name)
	_, err := a.dyn.Resource(namespaceGVR).Create(ctx, ns, metav1.CreateOptions{FieldManager: FieldManager})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", name, err)
	}
	a.namespaces[name] = true
	return nil
}

// waitCRDsEstablished waits for every CRD among objs to be Established (one
// list per poll, however many CRDs), then forgets cached discovery so their
// kinds resolve.
func (a *applier) waitCRDsEstablished(ctx context.Context, objs []*unstructured.Unstructured) error {
	pending := map[string]bool{}
	for _, o := range objs {
		if o.GetKind() == "CustomResourceDefinition" {
			pending[o.GetName()] = true
		}
	}
	if len(pending) == 0 {
		return nil
	}
	err := waitFor(ctx, "the CRDs to be Established", 30*time.Second, nil, func(ctx context.Context) (bool, error) {
		list, err := a.dyn.Resource(crdGVR).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for i := range list.Items {
			if hasCondition(&list.Items[i], "Established") {
				delete(pending, list.Items[i].GetName())
			}
		}
		if len(pending) > 0 {
			return false, fmt.Errorf("not Established yet: %s", strings.Join(slices.Sorted(maps.Keys(pending)), ", "))
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	a.mapper.Reset()
	return nil
}

func hasCondition(obj *unstructured.Unstructured, condType string) bool {
	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if ok && m["type"] == condType && m["status"] == "True" {
			return true
		}
	}
	return false
}

func objectKey(obj *unstructured.Unstructured) string {
	if obj.GetNamespace() == "" {
		return obj.GetName()
	}
	return obj.GetNamespace() + "/" + obj.GetName()
}
