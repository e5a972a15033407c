package config

import (
	"testing"
)

// FuzzParse proves that no ConfigMap content can panic Parse or the helpers
// consumers call on its result, and that every reported error is well formed.
func FuzzParse(f *testing.F) {
	seeds := []struct {
		key   uint8
		value string
	}{
		{0, `{"art": {"image": "x"}}`},
		{5, `{"ingressGateway": "a/b", "domainTemplate": "{{ .Name }"}`},
		{5, `{"ingressGateway": "a/b", "ingressDomain": "e.com", "pathTemplate": "/{{ .Namespace }}/{{ .Name }}"}`},
		{5, `{"ingressGateway": "a/b", "domainTemplate": "{{ range 100000000 }}{{ end }}.x.com"}`},
		{10, `{"defaultDeploymentMode": "RawDeployment", "deploymentRolloutStrategy": {"defaultRollout": {"maxSurge": "99999999999%"}}}`},
		{3, `{"cpuRequest": "1e400"}`},
		{15, `{"scrapeInterval": "-1s"}`},
		{9, `{"headers": {"propagate": ["(((("]}}`},
		{1, `[]`},
		{13, `{"fsGroup": 1e30}`},
		{2, `null`},
		{4, "\x00\xff"},
	}
	for _, s := range seeds {
		f.Add(s.key, s.value, "sample", "ns")
	}
	keys := append(KnownKeys(), KeyExample, "unknown")
	f.Fuzz(func(t *testing.T, keyIndex uint8, value, name, namespace string) {
		key := keys[int(keyIndex)%len(keys)]
		cfg, errs := Parse(map[string]string{key: value})
		if cfg == nil {
			t.Fatal("Parse returned a nil Config")
		}
		for _, ke := range errs.All() {
			if ke.Key != key || ke.Problem == "" || ke.Fix == "" {
				t.Fatalf("malformed KeyError for key %q: %#v", key, ke)
			}
		}
		exerciseHelpers(cfg, name, namespace)
	})
}

// exerciseHelpers calls the pure helpers with whatever Parse accepted.
func exerciseHelpers(cfg *Config, name, namespace string) {
	labels := map[string]string{VisibilityLabel: name}
	_, _ = cfg.Ingress.Host(name, namespace, labels, labels)
	_, _ = cfg.Ingress.URL(name, namespace, nil, nil)
	_, _ = cfg.Ingress.Path(name, namespace)
	_, _ = cfg.Ingress.PathURL(name, namespace)
	_ = cfg.Ingress.IsClusterLocal(labels)
	_ = cfg.InferenceService.Resources()
	_ = cfg.StorageInitializer.Resources()
	_ = cfg.StorageInitializer.ModelcarResources()
	_ = cfg.StorageInitializer.EffectiveOCIModelMode()
	_ = cfg.Router.PullSecrets()
	_ = cfg.Deploy.DefaultRollout()
	_ = cfg.MultiNode.IsKnownGPUResource(name)
	_ = cfg.Autoscaler.ScaleDownStabilizationWindow()
	_ = cfg.Credentials.StorageSecretName(labels)
	_ = cfg.Explainers.ART.Image(name)
}
