package config

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Ingress defaults from KServe's code.
const (
	DefaultDomainTemplate              = "{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}"
	DefaultIngressDomain               = "example.com"
	DefaultURLScheme                   = "http"
	DefaultModelBasedRoutingHeaderName = "X-Gateway-Model-Name"
)

// ModelBasedRoutingMode controls LLMInferenceService model-name routing.
type ModelBasedRoutingMode string

const (
	ModelBasedRoutingEnabled  ModelBasedRoutingMode = "enabled"
	ModelBasedRoutingForced   ModelBasedRoutingMode = "forced"
	ModelBasedRoutingDisabled ModelBasedRoutingMode = "disabled"
)

// IngressConfig is the `ingress` key.
type IngressConfig struct {
	EnableGatewayAPI bool `json:"enableGatewayApi,omitempty"`
	// KserveIngressGateway is the Gateway ("namespace/name") that Standard-mode
	// HTTPRoutes and LLMInferenceService routes attach to.
	KserveIngressGateway string `json:"kserveIngressGateway,omitempty"`
	// IngressGateway is the Istio gateway for external Knative traffic.
	IngressGateway             string   `json:"ingressGateway,omitempty"`
	KnativeLocalGatewayService string   `json:"knativeLocalGatewayService,omitempty"`
	LocalGateway               string   `json:"localGateway,omitempty"`
	LocalGatewayServiceName    string   `json:"localGatewayService,omitempty"`
	IngressDomain              string   `json:"ingressDomain,omitempty"`
	IngressClassName           string   `json:"ingressClassName,omitempty"`
	AdditionalIngressDomains   []string `json:"additionalIngressDomains,omitempty"`
	// DomainTemplate renders a component's host; see Host.
	DomainTemplate               string `json:"domainTemplate,omitempty"`
	URLScheme                    string `json:"urlScheme,omitempty"`
	EnableLLMInferenceServiceTLS bool   `json:"enableLLMInferenceServiceTLS,omitempty"`
	DisableIstioVirtualHost      bool   `json:"disableIstioVirtualHost,omitempty"`
	// PathTemplate, when set, routes by path under IngressDomain; see Path.
	PathTemplate                string                `json:"pathTemplate,omitempty"`
	DisableIngressCreation      bool                  `json:"disableIngressCreation,omitempty"`
	DisableHTTPRouteTimeout     bool                  `json:"disableHTTPRouteTimeout,omitempty"`
	ModelBasedRoutingHeaderName string                `json:"modelBasedRoutingHeaderName,omitempty"`
	ModelBasedRoutingMode       ModelBasedRoutingMode `json:"modelBasedRoutingMode,omitempty"`
}

func defaultIngress() IngressConfig {
	c := IngressConfig{}
	c.fillDefaults()
	return c
}

func (c *IngressConfig) fillDefaults() {
	orDefault(&c.DomainTemplate, DefaultDomainTemplate)
	orDefault(&c.IngressDomain, DefaultIngressDomain)
	orDefault(&c.URLScheme, DefaultURLScheme)
	orDefault(&c.ModelBasedRoutingHeaderName, DefaultModelBasedRoutingHeaderName)
	if c.ModelBasedRoutingMode == "" {
		c.ModelBasedRoutingMode = ModelBasedRoutingEnabled
	}
	// Knative's ExternalName target and the VirtualService destination are the
	// same service unless an operator splits them.
	if c.KnativeLocalGatewayService == "" {
		c.KnativeLocalGatewayService = c.LocalGatewayServiceName
	}
}

// parseIngress decodes over an empty value: KServe's pathTemplate rule looks at
// the ingressDomain the author wrote, before the example.com default applies.
func parseIngress(raw string, c *Config) *KeyError {
	return decodeInto(KeyIngress, raw, &c.Ingress, func() IngressConfig { return IngressConfig{} },
		func(v *IngressConfig) *KeyError {
			if ke := v.validateWritten(); ke != nil {
				return ke
			}
			v.fillDefaults()
			return v.validateEffective()
		})
}

// validateWritten applies the rules KServe applies to the key as written.
func (c *IngressConfig) validateWritten() *KeyError {
	if strings.TrimSpace(c.IngressGateway) == "" {
		return &KeyError{Field: "ingressGateway", Problem: "is required when the ingress key is set",
			Fix: `set it to the Istio gateway for external traffic, e.g. "knative-serving/knative-ingress-gateway"`}
	}
	if c.EnableGatewayAPI {
		if ke := validateGatewayRef("kserveIngressGateway", c.KserveIngressGateway); ke != nil {
			return ke
		}
	}
	if c.PathTemplate != "" && strings.TrimSpace(c.IngressDomain) == "" {
		return &KeyError{Field: "ingressDomain", Problem: "is required when pathTemplate is set",
			Fix: "set ingressDomain to the host that serves the paths, or remove pathTemplate"}
	}
	return nil
}

// validateEffective checks the values consumers will use, defaults included,
// so that a bad template fails here once instead of in every reconcile.
func (c *IngressConfig) validateEffective() *KeyError {
	if ke := validateDomain("ingressDomain", c.IngressDomain); ke != nil {
		return ke
	}
	for i, d := range c.AdditionalIngressDomains {
		if ke := validateDomain(fmt.Sprintf("additionalIngressDomains[%d]", i), d); ke != nil {
			return ke
		}
	}
	if c.URLScheme != "http" && c.URLScheme != "https" {
		return &KeyError{Field: "urlScheme", Problem: fmt.Sprintf("unknown scheme %q", c.URLScheme),
			Fix: `use "http" or "https"`}
	}
	switch c.ModelBasedRoutingMode {
	case ModelBasedRoutingEnabled, ModelBasedRoutingForced, ModelBasedRoutingDisabled:
	default:
		return &KeyError{Field: "modelBasedRoutingMode",
			Problem: fmt.Sprintf("unknown mode %q", c.ModelBasedRoutingMode),
			Fix:     `use "enabled", "forced" or "disabled"`}
	}
	if ke := c.validateDomainTemplate(); ke != nil {
		return ke
	}
	return c.validatePathTemplate()
}

func validateDomain(field, domain string) *KeyError {
	if errs := validation.IsDNS1123Subdomain(domain); len(errs) > 0 {
		return &KeyError{Field: field,
			Problem: fmt.Sprintf("%q is not a DNS name: %s", domain, strings.Join(errs, "; ")),
			Fix:     `use a lower-case DNS name such as "example.com"`}
	}
	return nil
}

// validateGatewayRef checks a "namespace/name" Gateway reference.
func validateGatewayRef(field, ref string) *KeyError {
	fix := `use "namespace/name" of an existing Gateway, e.g. "kserve/kserve-ingress-gateway"`
	if strings.TrimSpace(ref) == "" {
		return &KeyError{Field: field, Problem: "is required when enableGatewayApi is true", Fix: fix}
	}
	ns, name, ok := SplitGatewayRef(ref)
	if !ok {
		return &KeyError{Field: field, Problem: fmt.Sprintf("%q is not of the form namespace/name", ref), Fix: fix}
	}
	if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
		return &KeyError{Field: field, Problem: fmt.Sprintf("namespace %q is invalid: %s", ns, strings.Join(errs, "; ")), Fix: fix}
	}
	if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
		return &KeyError{Field: field, Problem: fmt.Sprintf("gateway name %q is invalid: %s", name, strings.Join(errs, "; ")), Fix: fix}
	}
	return nil
}

// SplitGatewayRef splits "namespace/name"; ok is false unless there are
// exactly two non-empty parts.
func SplitGatewayRef(ref string) (namespace, name string, ok bool) {
	parts := strings.Split(ref, "/")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// KserveIngressGatewayRef returns the namespace and name of the Gateway that
// Standard-mode HTTPRoutes attach to.
func (c *IngressConfig) KserveIngressGatewayRef() (namespace, name string, ok bool) {
	return SplitGatewayRef(c.KserveIngressGateway)
}
