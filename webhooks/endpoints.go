// Package webhooks serves fsmserve's admission webhooks at KServe's paths:
// InferenceService defaulting and validation, runtime validation, and the pod
// mutator. This file is the single description of every endpoint; the
// generated manifests (config/webhook) and the configurations installed by
// `fsmserve dev` and the envtest suites are all built from it.
package webhooks

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// Paths, exactly as KServe serves them.
const (
	PathISVCDefaulter  = "/mutate-serving-kserve-io-v1beta1-inferenceservice"
	PathISVCValidator  = "/validate-serving-kserve-io-v1beta1-inferenceservice"
	PathPodMutator     = "/mutate-pods"
	PathSRValidator    = "/validate-serving-kserve-io-v1alpha1-servingruntime"
	PathCSRValidator   = "/validate-serving-kserve-io-v1alpha1-clusterservingruntime"
	PathIGValidator    = "/validate-serving-kserve-io-v1alpha1-inferencegraph"
	ConfigurationIG    = "inferencegraph.serving.kserve.io"
	PathLMCValidator   = "/validate-serving-kserve-io-v1alpha1-localmodelcache"
	PathLMNCValidator  = "/validate-serving-kserve-io-v1alpha1-localmodelnamespacecache"
	ConfigurationISVC  = "inferenceservice.serving.kserve.io"
	ConfigurationSR    = "servingruntime.serving.kserve.io"
	ConfigurationCSR   = "clusterservingruntime.serving.kserve.io"
	ConfigurationLMC   = "localmodelcache.serving.kserve.io"
	ConfigurationLMNC  = "localmodelnamespacecache.serving.kserve.io"
	ServiceName        = "kserve-webhook-server-service"
	controlPlaneLabel  = "control-plane"
	namespaceNameLabel = "kubernetes.io/metadata.name"
)

// TimeoutSeconds is short so a slow or absent webhook fails fast instead of
// holding every write to these kinds for the API server's default 10 s.
const TimeoutSeconds int32 = 5

// Endpoint describes one webhook.
type Endpoint struct {
	Configuration string
	Name          string
	Path          string
	Mutating      bool
	Rules         []admissionregistrationv1.RuleWithOperations
	// Policy: validators and the InferenceService defaulter fail closed; the
	// pod mutator fails open (a pod it missed is repaired by the controller),
	// so it can never stop a cluster from creating pods.
	Policy            admissionregistrationv1.FailurePolicyType
	ObjectSelector    *metav1.LabelSelector
	NamespaceSelector *metav1.LabelSelector
	Reinvocation      *admissionregistrationv1.ReinvocationPolicyType
}

func rule(group, version, resource string, ops ...admissionregistrationv1.OperationType) []admissionregistrationv1.RuleWithOperations {
	scope := admissionregistrationv1.AllScopes
	return []admissionregistrationv1.RuleWithOperations{{Operations: ops, Rule: admissionregistrationv1.Rule{
		APIGroups: []string{group}, APIVersions: []string{version}, Resources: []string{resource}, Scope: &scope}}}
}

// Endpoints lists every webhook fsmserve serves. systemNamespace is excluded
// from the pod mutator, with any namespace labelled control-plane.
func Endpoints(systemNamespace string) []Endpoint {
	create, update, del := admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete
	fail, ignore := admissionregistrationv1.Fail, admissionregistrationv1.Ignore
	ifNeeded := admissionregistrationv1.IfNeededReinvocationPolicy
	return []Endpoint{
		{Configuration: ConfigurationISVC, Name: "inferenceservice.kserve-webhook-server.defaulter", Path: PathISVCDefaulter, Mutating: true,
			Rules: rule("serving.kserve.io", "v1beta1", "inferenceservices", create, update), Policy: fail},
		{Configuration: ConfigurationISVC, Name: "inferenceservice.kserve-webhook-server.pod-mutator", Path: PathPodMutator, Mutating: true,
			Rules: rule("", "v1", "pods", create), Policy: ignore, Reinvocation: &ifNeeded,
			ObjectSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: v1beta1.InferenceServiceLabel, Operator: metav1.LabelSelectorOpExists}}},
			NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: controlPlaneLabel, Operator: metav1.LabelSelectorOpDoesNotExist},
				{Key: namespaceNameLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{systemNamespace}}}}},
		{Configuration: ConfigurationISVC, Name: "inferenceservice.kserve-webhook-server.validator", Path: PathISVCValidator,
			Rules: rule("serving.kserve.io", "v1beta1", "inferenceservices", create, update), Policy: fail},
		{Configuration: ConfigurationSR, Name: "servingruntime.kserve-webhook-server.validator", Path: PathSRValidator,
			Rules: rule("serving.kserve.io", "v1alpha1", "servingruntimes", create, update), Policy: fail},
		{Configuration: ConfigurationCSR, Name: "clusterservingruntime.kserve-webhook-server.validator", Path: PathCSRValidator,
			Rules: rule("serving.kserve.io", "v1alpha1", "clusterservingruntimes", create, update), Policy: fail},
		{Configuration: ConfigurationIG, Name: "inferencegraph.kserve-webhook-server.validator", Path: PathIGValidator,
			Rules: rule("serving.kserve.io", "v1alpha1", "inferencegraphs", create, update), Policy: fail},
		{Configuration: ConfigurationLMC, Name: "localmodelcache.kserve-webhook-server.validator", Path: PathLMCValidator,
			Rules: rule("serving.kserve.io", "v1alpha1", "localmodelcaches", create, update, del), Policy: fail},
		{Configuration: ConfigurationLMNC, Name: "localmodelnamespacecache.kserve-webhook-server.validator", Path: PathLMNCValidator,
			Rules: rule("serving.kserve.io", "v1alpha1", "localmodelnamespacecaches", create, update, del), Policy: fail},
	}
}
