package graph

import (
	"maps"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/steps/predictor"
	"github.com/fsmserve/fsmserve/steps/serving"
)

// The router's process and port. The image comes from the router key of
// inferenceservice-config; the command names fsmserve's router explicitly, so
// it runs whatever the image's entrypoint is, and the arguments stay KServe's.
var RouterCommand = []string{"fsmserve", "router"}

const (
	// RouterPort is where the router listens and answers /readyz.
	RouterPort = 8080
	// GraphJSONFlag passes the resolved spec, as in KServe.
	GraphJSONFlag = "--graph-json"
	// PropagateHeadersEnv lists the header patterns the router forwards.
	PropagateHeadersEnv = "PROPAGATE_HEADERS"
	// headersPropagate is the router key's operation the env var comes from.
	headersPropagate = "propagate"
	// lastAppliedAnnotation is kubectl's copy of the manifest: noise on children.
	lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
)

// Desired is what the router's children should look like.
type Desired struct {
	// Children are the Deployment, Service and (for the hpa class, the
	// default) HPA.
	serving.Children
	// TemplateHash fingerprints the pod template (serving.TemplateHash): the
	// router runs the current graph when its template carries it.
	TemplateHash string
}

// Build returns the router's Deployment, Service and HPA, all named after the
// graph, for the resolved graph JSON.
func Build(ig *v1alpha1.InferenceGraph, graphJSON []byte, cfg *config.Config) *Desired {
	meta := objectMeta(ig)
	class := autoscalerClass(ig)
	d := &Desired{Children: serving.Children{
		Deployment: deployment(meta, podSpec(ig, graphJSON, &cfg.Router), ig, class, &cfg.Deploy),
		Service:    service(copyMeta(meta)),
	}}
	if class == v1beta1.AutoscalerClassHPA {
		d.HPA = hpa(copyMeta(meta), &ig.Spec)
	}
	d.TemplateHash = serving.TemplateHash(&d.Deployment.Spec.Template)
	d.Deployment.Spec.Template.Annotations[serving.TemplateHashAnnotation] = d.TemplateHash
	return d
}

// objectMeta carries the graph's labels and annotations, as KServe does, plus
// the graph label, the selector label and fsmserve's managed-by label.
func objectMeta(ig *v1alpha1.InferenceGraph) metav1.ObjectMeta {
	labels := maps.Clone(ig.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[v1alpha1.InferenceGraphLabel] = ig.Name
	labels[v1beta1.AppLabel] = appLabel(ig.Name)
	labels[predictor.ManagedByLabel] = predictor.ManagedByValue
	annotations := map[string]string{}
	for k, v := range ig.Annotations {
		if k != lastAppliedAnnotation {
			annotations[k] = v
		}
	}
	return metav1.ObjectMeta{
		Name: ig.Name, Namespace: ig.Namespace, Labels: labels, Annotations: annotations,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ig, v1alpha1.GroupVersion.WithKind("InferenceGraph"))},
	}
}

// appLabel is KServe's selector value for Standard-mode workloads.
func appLabel(name string) string { return "isvc." + name }

func copyMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	out := *m.DeepCopy()
	return out
}

// podSpec is KServe's router pod: one locked-down container, no API token.
func podSpec(ig *v1alpha1.InferenceGraph, graphJSON []byte, rc *config.RouterConfig) corev1.PodSpec {
	c := corev1.Container{
		Name:            ig.Name,
		Image:           rc.Image,
		Command:         append([]string(nil), RouterCommand...),
		Args:            []string{GraphJSONFlag, string(graphJSON)},
		Resources:       resources(ig, rc),
		ImagePullPolicy: rc.ImagePullPolicy,
		ReadinessProbe:  readinessProbe(),
		SecurityContext: &corev1.SecurityContext{
			Privileged:               ptr(false),
			RunAsNonRoot:             ptr(true),
			ReadOnlyRootFilesystem:   ptr(true),
			AllowPrivilegeEscalation: ptr(false),
			Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		},
	}
	if patterns, ok := rc.Headers[headersPropagate]; ok {
		c.Env = []corev1.EnvVar{{Name: PropagateHeadersEnv, Value: strings.Join(patterns, ",")}}
	}
	return corev1.PodSpec{
		Containers:                   []corev1.Container{c},
		Affinity:                     ig.Spec.Affinity.DeepCopy(),
		Tolerations:                  append([]corev1.Toleration(nil), ig.Spec.Tolerations...),
		NodeSelector:                 maps.Clone(ig.Spec.NodeSelector),
		NodeName:                     ig.Spec.NodeName,
		ServiceAccountName:           ig.Spec.ServiceAccountName,
		AutomountServiceAccountToken: ptr(false),
		ImagePullSecrets:             rc.PullSecrets(),
	}
}

// resources are the graph's own when it sets any, else the router key's.
func resources(ig *v1alpha1.InferenceGraph, rc *config.RouterConfig) corev1.ResourceRequirements {
	if len(ig.Spec.Resources.Limits) > 0 || len(ig.Spec.Resources.Requests) > 0 {
		return corev1.ResourceRequirements{Limits: ig.Spec.Resources.Limits.DeepCopy(), Requests: ig.Spec.Resources.Requests.DeepCopy()}
	}
	return rc.Resources()
}

func readinessProbe() *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path: "/readyz", Port: intstr.FromInt32(RouterPort), Scheme: corev1.URISchemeHTTP,
		}},
		InitialDelaySeconds: 5, TimeoutSeconds: 2, PeriodSeconds: 5, SuccessThreshold: 1, FailureThreshold: 3,
	}
}

func deployment(meta metav1.ObjectMeta, pod corev1.PodSpec, ig *v1alpha1.InferenceGraph, class v1beta1.AutoscalerClass, deploy *config.DeployConfig) *appsv1.Deployment {
	template := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(meta.Labels), Annotations: maps.Clone(meta.Annotations)},
		Spec:       pod,
	}
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: meta,
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{v1beta1.AppLabel: appLabel(meta.Name)}},
			Template: template,
		},
	}
	if r := deploy.DefaultRollout(); r != nil {
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: r}
	}
	if class != v1beta1.AutoscalerClassHPA && ig.Spec.MinReplicas != nil {
		d.Spec.Replicas = ptr(*ig.Spec.MinReplicas)
	}
	return d
}

// service puts port 80 in front of the router's 8080, as KServe does.
func service(meta metav1.ObjectMeta) *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: meta,
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{v1beta1.AppLabel: appLabel(meta.Name)},
			Ports: []corev1.ServicePort{{
				Name: meta.Name, Port: 80, TargetPort: intstr.FromInt32(RouterPort), Protocol: corev1.ProtocolTCP,
			}},
		},
	}
}

// autoscalerClass is the graph's serving.kserve.io/autoscalerClass, hpa by default.
func autoscalerClass(ig *v1alpha1.InferenceGraph) v1beta1.AutoscalerClass {
	if c := ig.Annotations[v1alpha1.AutoscalerClassAnnotation]; c != "" {
		return v1beta1.AutoscalerClass(c)
	}
	return v1beta1.AutoscalerClassHPA
}

// templateHash fingerprints a pod template without fsmserve's own stamps.
func ptr[T any](v T) *T { return &v }
