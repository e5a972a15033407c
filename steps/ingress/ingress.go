// Package ingress builds how an InferenceService is reached in Standard mode:
// its external URL from the ingress configuration, its in-cluster address, and
// the Kubernetes Ingress that routes its hosts to the predictor Service.
package ingress

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/steps/predictor"
)

// lastAppliedAnnotation is kubectl's copy of the whole manifest: noise on a
// child, and large.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// Wanted reports whether a Kubernetes Ingress should exist: not for
// cluster-local InferenceServices and not when ingress creation is disabled.
func Wanted(isvc *v1beta1.InferenceService, cfg *config.IngressConfig) bool {
	return !cfg.IsClusterLocal(isvc.Labels) && !cfg.DisableIngressCreation
}

// Ingress builds the Ingress {isvc}: the top host and the predictor host, both
// to port 80 of the predictor Service.
func Ingress(isvc *v1beta1.InferenceService, cfg *config.IngressConfig) (*networkingv1.Ingress, error) {
	pred := isvc.PredictorDeploymentName()
	var rules []networkingv1.IngressRule
	for _, name := range []string{isvc.Name, pred} {
		host, err := cfg.Host(name, isvc.Namespace, isvc.Annotations, isvc.Labels)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rule(host, pred))
	}
	ing := &networkingv1.Ingress{
		TypeMeta: metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "Ingress"},
		ObjectMeta: metav1.ObjectMeta{
			Name: isvc.Name, Namespace: isvc.Namespace,
			Labels:          map[string]string{predictor.ManagedByLabel: predictor.ManagedByValue, v1beta1.InferenceServiceLabel: isvc.Name},
			Annotations:     annotations(isvc.Annotations),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(isvc, v1beta1.GroupVersion.WithKind("InferenceService"))},
		},
		Spec: networkingv1.IngressSpec{Rules: rules},
	}
	if cfg.IngressClassName != "" {
		class := cfg.IngressClassName
		ing.Spec.IngressClassName = &class
	}
	return ing, nil
}

func rule(host, service string) networkingv1.IngressRule {
	prefix := networkingv1.PathTypePrefix
	return networkingv1.IngressRule{Host: host, IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{
		Paths: []networkingv1.HTTPIngressPath{{Path: "/", PathType: &prefix, Backend: networkingv1.IngressBackend{
			Service: &networkingv1.IngressServiceBackend{Name: service, Port: networkingv1.ServiceBackendPort{Number: 80}},
		}}},
	}}}
}

func annotations(src map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range src {
		if k != lastAppliedAnnotation {
			out[k] = v
		}
	}
	return out
}

// URL is status.url: urlScheme://domainTemplate(isvc).
func URL(isvc *v1beta1.InferenceService, cfg *config.IngressConfig) (string, error) {
	u, err := cfg.URL(isvc.Name, isvc.Namespace, isvc.Annotations, isvc.Labels)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// ComponentURL is status.components.predictor.url: http://domainTemplate(predictor).
func ComponentURL(isvc *v1beta1.InferenceService, cfg *config.IngressConfig) (string, error) {
	host, err := cfg.Host(isvc.PredictorDeploymentName(), isvc.Namespace, isvc.Annotations, isvc.Labels)
	if err != nil {
		return "", err
	}
	return "http://" + host, nil
}

// Address is status.address.url: the entry Service's cluster DNS name, with
// the target port of its first non-gRPC port when the Service is headless.
func Address(svc *corev1.Service, clusterDomain string) string {
	addr := fmt.Sprintf("http://%s.%s.svc.%s", svc.Name, svc.Namespace, clusterDomain)
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		return addr
	}
	return addr + ":" + strconv.Itoa(headlessPort(svc))
}

func headlessPort(svc *corev1.Service) int {
	for _, p := range svc.Spec.Ports {
		name := strings.ToLower(p.Name)
		grpc := strings.Contains(name, "grpc") || strings.Contains(name, "h2c") || (p.AppProtocol != nil && *p.AppProtocol == "kubernetes.io/h2c")
		if !grpc && p.TargetPort.IntValue() > 0 {
			return p.TargetPort.IntValue()
		}
	}
	return 8080
}
