package runner

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// objectRef is an object named in a step: Kind/name or Kind.group/name.
type objectRef struct {
	Kind  string
	Group string // "" unless written; resolved from the scheme otherwise
	Name  string
	// explicitGroup is true when the text named the group; otherwise the
	// group is looked up by kind.
	explicitGroup bool
}

// String renders the reference as written.
func (r objectRef) String() string {
	if r.explicitGroup {
		return r.Kind + "." + r.Group + "/" + r.Name
	}
	return r.Kind + "/" + r.Name
}

// parseRef reads "Kind/name" or "Kind.group/name" (e.g. Event.events.k8s.io/x).
func parseRef(s string) (objectRef, error) {
	kindPart, name, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok || kindPart == "" || name == "" || strings.Contains(name, "/") {
		return objectRef{}, fmt.Errorf("object %q: write Kind/name, e.g. InferenceService/sklearn-iris (Kind.group/name when the kind is ambiguous)", s)
	}
	kind, group, explicit := strings.Cut(kindPart, ".")
	if kind == "" {
		return objectRef{}, fmt.Errorf("object %q: the kind is missing; write Kind/name or Kind.group/name", s)
	}
	if r := []rune(kind); !unicode.IsUpper(r[0]) {
		return objectRef{}, fmt.Errorf("object %q: the kind %q is written as in YAML, e.g. Deployment, not deployment", s, kind)
	}
	return objectRef{Kind: kind, Group: group, Name: name, explicitGroup: explicit}, nil
}

// kindInfo is a resolved kind: the version the server prefers and its scope.
type kindInfo struct {
	gvk        schema.GroupVersionKind
	namespaced bool
}

// resolveKind maps a kind (and optional group) to the served version and its
// scope. Candidate groups come from the client's scheme; when several serve
// the kind, the core group wins, as in kubectl.
func resolveKind(c client.Client, kind, group string, explicit bool) (kindInfo, error) {
	groups := []string{group}
	if !explicit {
		groups = schemeGroupsOf(c.Scheme(), kind)
		if len(groups) == 0 {
			return kindInfo{}, fmt.Errorf("kind %s is not in fsmserve's scheme: write Kind.group/name, e.g. %s.example.com/x", kind, kind)
		}
	}
	var served []*meta.RESTMapping
	var lastErr error
	for _, g := range groups {
		m, err := c.RESTMapper().RESTMapping(schema.GroupKind{Group: g, Kind: kind})
		if err != nil {
			lastErr = err
			continue
		}
		served = append(served, m)
	}
	switch {
	case len(served) == 0:
		return kindInfo{}, fmt.Errorf("kind %s is not served by the API server (is its CRD installed?): %v", kind, lastErr)
	case len(served) > 1 && served[0].GroupVersionKind.Group != "":
		names := make([]string, 0, len(served))
		for _, m := range served {
			names = append(names, kind+"."+m.GroupVersionKind.Group)
		}
		return kindInfo{}, fmt.Errorf("kind %s is ambiguous: write one of %s", kind, strings.Join(names, ", "))
	}
	m := served[0]
	return kindInfo{gvk: m.GroupVersionKind, namespaced: m.Scope.Name() == meta.RESTScopeNameNamespace}, nil
}

// schemeGroupsOf lists the groups in which the scheme knows kind, core first.
func schemeGroupsOf(s *runtime.Scheme, kind string) []string {
	var groups []string
	for gvk := range s.AllKnownTypes() {
		if gvk.Kind == kind && gvk.Version != runtime.APIVersionInternal && !slices.Contains(groups, gvk.Group) {
			groups = append(groups, gvk.Group)
		}
	}
	sort.Strings(groups) // "" (core) sorts first
	return groups
}

// newObject returns an empty object of the resolved kind, named and placed.
func (k kindInfo) newObject(name, namespace string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(k.gvk)
	u.SetName(name)
	if k.namespaced {
		u.SetNamespace(namespace)
	}
	return u
}

// key returns the client key of the named object.
func (k kindInfo) key(name, namespace string) client.ObjectKey {
	if !k.namespaced {
		namespace = ""
	}
	return client.ObjectKey{Namespace: namespace, Name: name}
}
