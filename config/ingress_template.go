package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"text/template"
	"text/template/parse"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Visibility label and the domain that both make an InferenceService
// cluster-internal (no Ingress, no external host).
const (
	VisibilityLabel        = "networking.kserve.io/visibility"
	ClusterLocalVisibility = "cluster-local"
	ClusterLocalDomain     = "svc.cluster.local"
)

// maxRenderedBytes bounds template output: a host is at most 253 bytes and a
// path is short, so anything far larger is a mistake, not a URL.
const maxRenderedBytes = 4096

// DomainTemplateValues are the variables available to domainTemplate.
type DomainTemplateValues struct {
	Name          string
	Namespace     string
	IngressDomain string
	Annotations   map[string]string
	Labels        map[string]string
}

// PathTemplateValues are the variables available to pathTemplate.
type PathTemplateValues struct {
	Name      string
	Namespace string
}

// Host renders domainTemplate for a component named name (for example
// "{isvc}-predictor") and checks that the result is a fully qualified DNS-1123
// name, since it becomes an Ingress or HTTPRoute host.
func (c *IngressConfig) Host(name, namespace string, annotations, labels map[string]string) (string, error) {
	host, err := renderTemplate("domainTemplate", c.domainTemplate(), DomainTemplateValues{
		Name: name, Namespace: namespace, IngressDomain: c.IngressDomain,
		Annotations: annotations, Labels: labels,
	})
	if err != nil {
		return "", err
	}
	if errs := validation.IsFullyQualifiedDomainName(field.NewPath("host"), host); len(errs) > 0 {
		return "", fmt.Errorf("domainTemplate rendered an invalid host %q: %w", host, errs.ToAggregate())
	}
	return host, nil
}

// URL is urlScheme://Host(...), the external URL KServe reports in status.url.
func (c *IngressConfig) URL(name, namespace string, annotations, labels map[string]string) (*url.URL, error) {
	host, err := c.Host(name, namespace, annotations, labels)
	if err != nil {
		return nil, err
	}
	return &url.URL{Scheme: c.scheme(), Host: host}, nil
}

// Path renders pathTemplate, without a trailing slash; "" when no pathTemplate
// is configured.
func (c *IngressConfig) Path(name, namespace string) (string, error) {
	if c.PathTemplate == "" {
		return "", nil
	}
	rendered, err := renderTemplate("pathTemplate", c.PathTemplate, PathTemplateValues{Name: name, Namespace: namespace})
	if err != nil {
		return "", err
	}
	u, err := url.ParseRequestURI(rendered)
	if err != nil {
		return "", fmt.Errorf("pathTemplate rendered an invalid path %q: %w", rendered, err)
	}
	if u.Scheme != "" || u.Host != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("pathTemplate rendered %q, which is more than a path", rendered)
	}
	return strings.TrimSuffix(u.Path, "/"), nil
}

// PathURL is urlScheme://ingressDomain/path for path-based routing, or nil
// when no pathTemplate is configured.
func (c *IngressConfig) PathURL(name, namespace string) (*url.URL, error) {
	p, err := c.Path(name, namespace)
	if err != nil || p == "" {
		return nil, err
	}
	return &url.URL{Scheme: c.scheme(), Host: c.IngressDomain, Path: p}, nil
}

// IsClusterLocal reports whether an InferenceService with these labels is
// reachable only inside the cluster: by its visibility label, or because the
// whole installation uses the cluster-local domain.
func (c *IngressConfig) IsClusterLocal(labels map[string]string) bool {
	return labels[VisibilityLabel] == ClusterLocalVisibility || c.IngressDomain == ClusterLocalDomain
}

func (c *IngressConfig) domainTemplate() string {
	if c.DomainTemplate == "" {
		return DefaultDomainTemplate
	}
	return c.DomainTemplate
}

func (c *IngressConfig) scheme() string {
	if c.URLScheme == "" {
		return DefaultURLScheme
	}
	return c.URLScheme
}

// Sample values used to try templates at parse time.
const (
	sampleName      = "sample-isvc"
	sampleNamespace = "sample-namespace"
)

// validateDomainTemplate renders the template once with sample values. The
// host is only checked when the template does not read annotations or labels,
// because a template that reads them legitimately renders nonsense without the
// real object's metadata.
func (c *IngressConfig) validateDomainTemplate() *KeyError {
	fix := "use Go template syntax such as " + DefaultDomainTemplate
	if _, err := parseTemplate("domainTemplate", c.DomainTemplate); err != nil {
		return &KeyError{Field: "domainTemplate", Problem: err.Error(), Fix: fix}
	}
	readsMetadata := strings.Contains(c.DomainTemplate, "Annotations") || strings.Contains(c.DomainTemplate, "Labels")
	_, err := c.Host(sampleName, sampleNamespace, map[string]string{}, map[string]string{})
	if err != nil && (!readsMetadata || isTemplateError(err)) {
		return &KeyError{Field: "domainTemplate", Problem: err.Error(),
			Fix: fix + "; the result must be a lower-case DNS name with at least two labels"}
	}
	return nil
}

func (c *IngressConfig) validatePathTemplate() *KeyError {
	if c.PathTemplate == "" {
		return nil
	}
	p, err := c.Path(sampleName, sampleNamespace)
	fix := "use a template that renders an absolute path, such as /serving/{{ .Namespace }}/{{ .Name }}"
	if err != nil {
		return &KeyError{Field: "pathTemplate", Problem: err.Error(), Fix: fix}
	}
	if !strings.HasPrefix(p, "/") {
		return &KeyError{Field: "pathTemplate", Problem: fmt.Sprintf("renders %q, which does not start with /", p), Fix: fix}
	}
	return nil
}

// templateError marks failures of the template itself, as opposed to a
// rendered value that is not a valid host. It keeps text/template's message
// unchanged because that message already points at the offending column.
type templateError struct{ err error }

func (e *templateError) Error() string { return e.err.Error() }
func (e *templateError) Unwrap() error { return e.err }

func isTemplateError(err error) bool {
	var te *templateError
	return errors.As(err, &te)
}

func renderTemplate(name, text string, data any) (string, error) {
	tpl, err := parseTemplate(name, text)
	if err != nil {
		return "", err
	}
	var out limitedBuffer
	if err := tpl.Execute(&out, data); err != nil {
		return "", &templateError{err}
	}
	return out.String(), nil
}

// parseTemplate parses text and rejects loops and template calls: a host or
// path needs neither, and they are the only ways a template can do unbounded
// work in our process.
func parseTemplate(name, text string) (*template.Template, error) {
	tpl, err := template.New(name).Parse(text)
	if err != nil {
		return nil, &templateError{err}
	}
	for _, t := range tpl.Templates() {
		if t.Tree == nil {
			continue
		}
		if bad := forbiddenNode(t.Tree.Root); bad != "" {
			return nil, &templateError{fmt.Errorf("template: %s: %s is not allowed here", name, bad)}
		}
	}
	if len(tpl.Templates()) > 1 {
		return nil, &templateError{fmt.Errorf("template: %s: define and block are not allowed here", name)}
	}
	return tpl, nil
}

// forbiddenNode walks the parse tree and names the first disallowed construct.
func forbiddenNode(n parse.Node) string {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return ""
		}
		for _, child := range n.Nodes {
			if bad := forbiddenNode(child); bad != "" {
				return bad
			}
		}
	case *parse.RangeNode:
		return "range"
	case *parse.TemplateNode:
		return "template"
	case *parse.IfNode:
		return firstForbidden(n.List, n.ElseList)
	case *parse.WithNode:
		return firstForbidden(n.List, n.ElseList)
	}
	return ""
}

func firstForbidden(lists ...*parse.ListNode) string {
	for _, l := range lists {
		if l == nil {
			continue
		}
		if bad := forbiddenNode(l); bad != "" {
			return bad
		}
	}
	return ""
}

// limitedBuffer stops a template once its output is longer than any host or
// path could be.
type limitedBuffer struct{ strings.Builder }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxRenderedBytes {
		return 0, fmt.Errorf("output is longer than %d bytes", maxRenderedBytes)
	}
	return b.Builder.Write(p)
}
