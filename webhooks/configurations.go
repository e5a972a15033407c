package webhooks

import (
	"sort"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ClientConfigFor says how the API server reaches an endpoint's path.
type ClientConfigFor func(path string) admissionregistrationv1.WebhookClientConfig

// InCluster reaches the webhook Service in the system namespace (port 443).
func InCluster(namespace string) ClientConfigFor {
	return func(path string) admissionregistrationv1.WebhookClientConfig {
		p := path
		port := int32(443)
		return admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{
			Namespace: namespace, Name: ServiceName, Path: &p, Port: &port}}
	}
}

// AtURL reaches a webhook server at a base URL, such as https://127.0.0.1:9443
// for a manager running beside a local API server.
func AtURL(base string) ClientConfigFor {
	return func(path string) admissionregistrationv1.WebhookClientConfig {
		u := base + path
		return admissionregistrationv1.WebhookClientConfig{URL: &u}
	}
}

// Configurations builds the webhook configurations from Endpoints, grouped by
// configuration name (KServe's names), sorted for stable output.
func Configurations(systemNamespace string, cc ClientConfigFor) ([]admissionregistrationv1.MutatingWebhookConfiguration, []admissionregistrationv1.ValidatingWebhookConfiguration) {
	muts := map[string]*admissionregistrationv1.MutatingWebhookConfiguration{}
	vals := map[string]*admissionregistrationv1.ValidatingWebhookConfiguration{}
	none := admissionregistrationv1.SideEffectClassNone
	timeout := TimeoutSeconds
	for _, e := range Endpoints(systemNamespace) {
		if e.Mutating {
			cfg := muts[e.Configuration]
			if cfg == nil {
				cfg = &admissionregistrationv1.MutatingWebhookConfiguration{TypeMeta: metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingWebhookConfiguration"}, ObjectMeta: meta(e.Configuration)}
				muts[e.Configuration] = cfg
			}
			cfg.Webhooks = append(cfg.Webhooks, admissionregistrationv1.MutatingWebhook{Name: e.Name, ClientConfig: cc(e.Path), Rules: e.Rules,
				FailurePolicy: ptr(e.Policy), SideEffects: &none, TimeoutSeconds: &timeout, AdmissionReviewVersions: []string{"v1"},
				ObjectSelector: e.ObjectSelector, NamespaceSelector: e.NamespaceSelector, ReinvocationPolicy: e.Reinvocation})
			continue
		}
		cfg := vals[e.Configuration]
		if cfg == nil {
			cfg = &admissionregistrationv1.ValidatingWebhookConfiguration{TypeMeta: metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"}, ObjectMeta: meta(e.Configuration)}
			vals[e.Configuration] = cfg
		}
		cfg.Webhooks = append(cfg.Webhooks, admissionregistrationv1.ValidatingWebhook{Name: e.Name, ClientConfig: cc(e.Path), Rules: e.Rules,
			FailurePolicy: ptr(e.Policy), SideEffects: &none, TimeoutSeconds: &timeout, AdmissionReviewVersions: []string{"v1"},
			ObjectSelector: e.ObjectSelector, NamespaceSelector: e.NamespaceSelector})
	}
	return sortedMutating(muts), sortedValidating(vals)
}

// ConfigurationNames lists the mutating and validating configuration names,
// for the certificate manager's caBundle injection.
func ConfigurationNames(systemNamespace string) (mutating, validating []string) {
	muts, vals := Configurations(systemNamespace, InCluster(systemNamespace))
	for _, m := range muts {
		mutating = append(mutating, m.Name)
	}
	for _, v := range vals {
		validating = append(validating, v.Name)
	}
	return mutating, validating
}

func meta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Labels: map[string]string{"app.kubernetes.io/managed-by": "fsmserve"}}
}

func sortedMutating(m map[string]*admissionregistrationv1.MutatingWebhookConfiguration) []admissionregistrationv1.MutatingWebhookConfiguration {
	out := make([]admissionregistrationv1.MutatingWebhookConfiguration, 0, len(m))
	for _, c := range m {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func sortedValidating(m map[string]*admissionregistrationv1.ValidatingWebhookConfiguration) []admissionregistrationv1.ValidatingWebhookConfiguration {
	out := make([]admissionregistrationv1.ValidatingWebhookConfiguration, 0, len(m))
	for _, c := range m {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func ptr[T any](v T) *T { return &v }
