package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseIngressOrFail(t *testing.T, doc string) *IngressConfig {
	t.Helper()
	cfg, errs := Parse(map[string]string{KeyIngress: doc})
	require.Nil(t, errs, "unexpected errors: %v", errs.Err())
	return &cfg.Ingress
}

func TestHostAndURL(t *testing.T) {
	tests := []struct {
		name        string
		ingress     string
		objName     string
		annotations map[string]string
		labels      map[string]string
		wantHost    string
		wantURL     string
		wantErr     string
	}{
		{name: "defaults", ingress: `{"ingressGateway": "a/b"}`,
			wantHost: "sklearn-predictor-team.example.com", wantURL: "http://sklearn-predictor-team.example.com"},
		{name: "custom domain and https", ingress: `{"ingressGateway": "a/b", "ingressDomain": "models.corp.io", "urlScheme": "https"}`,
			wantHost: "sklearn-predictor-team.models.corp.io", wantURL: "https://sklearn-predictor-team.models.corp.io"},
		{name: "template reads annotations", ingress: `{"ingressGateway": "a/b", "domainTemplate": "{{ .Name }}.{{ index .Annotations \"zone\" }}.{{ .IngressDomain }}"}`,
			annotations: map[string]string{"zone": "eu"},
			wantHost:    "sklearn-predictor.eu.example.com", wantURL: "http://sklearn-predictor.eu.example.com"},
		{name: "template reads labels", ingress: `{"ingressGateway": "a/b", "domainTemplate": "{{ .Labels.app }}-{{ .Namespace }}.{{ .IngressDomain }}"}`,
			labels:   map[string]string{"app": "fraud"},
			wantHost: "fraud-team.example.com", wantURL: "http://fraud-team.example.com"},
		{name: "missing annotation renders an invalid host", ingress: `{"ingressGateway": "a/b", "domainTemplate": "{{ .Annotations.zone }}.{{ .IngressDomain }}"}`,
			wantErr: "invalid host"},
		{name: "name too long for a label", ingress: `{"ingressGateway": "a/b"}`,
			objName: strings.Repeat("a", 70), wantErr: "invalid host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ing := parseIngressOrFail(t, tt.ingress)
			name := tt.objName
			if name == "" {
				name = "sklearn-predictor"
			}
			host, err := ing.Host(name, "team", tt.annotations, tt.labels)
			u, uerr := ing.URL(name, "team", tt.annotations, tt.labels)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				assert.ErrorContains(t, uerr, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.NoError(t, uerr)
			assert.Equal(t, tt.wantHost, host)
			assert.Equal(t, tt.wantURL, u.String())
		})
	}
}

func TestHostOnZeroValueUsesKServeDefaults(t *testing.T) {
	var ing IngressConfig
	ing.IngressDomain = "example.com"
	u, err := ing.URL("a", "b", nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "http://a-b.example.com", u.String())
}

func TestPathTemplate(t *testing.T) {
	tests := []struct {
		name     string
		template string
		wantPath string
		wantURL  string
		wantErr  string
	}{
		{name: "no template", template: "", wantPath: "", wantURL: ""},
		{name: "namespace and name", template: "/serving/{{ .Namespace }}/{{ .Name }}",
			wantPath: "/serving/team/sklearn", wantURL: "http://models.example.com/serving/team/sklearn"},
		{name: "trailing slash removed", template: "/serving/{{ .Namespace }}/{{ .Name }}/",
			wantPath: "/serving/team/sklearn", wantURL: "http://models.example.com/serving/team/sklearn"},
		{name: "rendered query is rejected", template: "/serving/{{ .Name }}?x=1", wantErr: "more than a path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ing := IngressConfig{IngressDomain: "models.example.com", PathTemplate: tt.template}
			p, err := ing.Path("sklearn", "team")
			u, uerr := ing.PathURL("sklearn", "team")
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				assert.ErrorContains(t, uerr, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.NoError(t, uerr)
			assert.Equal(t, tt.wantPath, p)
			if tt.wantURL == "" {
				assert.Nil(t, u)
			} else {
				assert.Equal(t, tt.wantURL, u.String())
			}
		})
	}
}

func TestParseAcceptsPathTemplate(t *testing.T) {
	ing := parseIngressOrFail(t, `{"ingressGateway": "a/b", "ingressDomain": "models.example.com",
		"pathTemplate": "/serving/{{ .Namespace }}/{{ .Name }}"}`)
	p, err := ing.Path("x", "y")
	require.NoError(t, err)
	assert.Equal(t, "/serving/y/x", p)
}

func TestIsClusterLocal(t *testing.T) {
	tests := []struct {
		name   string
		domain string
		labels map[string]string
		want   bool
	}{
		{"external by default", "example.com", nil, false},
		{"visibility label", "example.com", map[string]string{"networking.kserve.io/visibility": "cluster-local"}, true},
		{"other visibility value", "example.com", map[string]string{"networking.kserve.io/visibility": "public"}, false},
		{"knative label is not ours", "example.com", map[string]string{"networking.knative.dev/visibility": "cluster-local"}, false},
		{"cluster-local domain", "svc.cluster.local", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ing := IngressConfig{IngressDomain: tt.domain}
			assert.Equal(t, tt.want, ing.IsClusterLocal(tt.labels))
		})
	}
}

func TestIngressFieldsAndDerivedDefaults(t *testing.T) {
	ing := parseIngressOrFail(t, `{"enableGatewayApi": true, "kserveIngressGateway": "kserve/kserve-ingress-gateway",
		"ingressGateway": "knative-serving/knative-ingress-gateway", "localGateway": "knative-serving/knative-local-gateway",
		"localGatewayService": "knative-local-gateway.istio-system.svc.cluster.local", "ingressDomain": "example.com",
		"additionalIngressDomains": ["a.example.com"], "ingressClassName": "istio", "urlScheme": "https",
		"disableIstioVirtualHost": true, "disableIngressCreation": true, "disableHTTPRouteTimeout": true,
		"enableLLMInferenceServiceTLS": true, "modelBasedRoutingHeaderName": "X-Model", "modelBasedRoutingMode": "forced"}`)
	assert.True(t, ing.EnableGatewayAPI)
	ns, name, ok := ing.KserveIngressGatewayRef()
	assert.True(t, ok)
	assert.Equal(t, []string{"kserve", "kserve-ingress-gateway"}, []string{ns, name})
	assert.Equal(t, "knative-local-gateway.istio-system.svc.cluster.local", ing.KnativeLocalGatewayService,
		"knativeLocalGatewayService falls back to localGatewayService")
	assert.Equal(t, []string{"a.example.com"}, ing.AdditionalIngressDomains)
	assert.Equal(t, "istio", ing.IngressClassName)
	assert.True(t, ing.DisableIstioVirtualHost && ing.DisableIngressCreation && ing.DisableHTTPRouteTimeout && ing.EnableLLMInferenceServiceTLS)
	assert.Equal(t, "X-Model", ing.ModelBasedRoutingHeaderName)
	assert.Equal(t, ModelBasedRoutingForced, ing.ModelBasedRoutingMode)

	explicit := parseIngressOrFail(t, `{"ingressGateway": "a/b", "localGatewayService": "x.svc", "knativeLocalGatewayService": "y.svc"}`)
	assert.Equal(t, "y.svc", explicit.KnativeLocalGatewayService)
}

func TestSplitGatewayRef(t *testing.T) {
	tests := []struct {
		in             string
		wantNS, wantGW string
		wantOK         bool
	}{
		{"kserve/gw", "kserve", "gw", true},
		{"kserve", "", "", false},
		{"a/b/c", "", "", false},
		{"/gw", "", "", false},
		{"ns/", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			ns, gw, ok := SplitGatewayRef(tt.in)
			assert.Equal(t, []string{tt.wantNS, tt.wantGW}, []string{ns, gw})
			assert.Equal(t, tt.wantOK, ok)
		})
	}
}

func TestTemplateOutputIsBounded(t *testing.T) {
	ing := IngressConfig{IngressDomain: "example.com",
		DomainTemplate: `{{ printf "%999999s" .Name }}{{ printf "%999999s" .Name }}.{{ .IngressDomain }}`}
	_, err := ing.Host("a", "b", nil, nil)
	assert.ErrorContains(t, err, "longer than")
}
