package predictor

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// AgentPort is where the agent sidecar (logger, batcher) listens; the Service
// sends traffic through it when one is configured.
const AgentPort = 9081

// service builds the predictor Service: port 80 in front of the serving
// container's first port (8080 when it declares none), its other ports 1:1.
func service(meta metav1.ObjectMeta, containers []corev1.Container, pred *v1beta1.PredictorSpec, headless bool) *corev1.Service {
	svc := &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: meta,
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{v1beta1.AppLabel: meta.Labels[v1beta1.AppLabel]},
			Ports:    servicePorts(meta.Name, portSource(containers)),
		},
	}
	if pred.Logger != nil || pred.Batcher != nil {
		svc.Spec.Ports[0].TargetPort = intstr.FromInt32(AgentPort)
	}
	if headless {
		svc.Spec.ClusterIP = corev1.ClusterIPNone
	}
	return svc
}

// portSource is the container whose ports the Service exposes: a collocated
// transformer when there is one, else the first container.
func portSource(cs []corev1.Container) *corev1.Container {
	if t := findContainer(cs, v1beta1.TransformerContainerName); t != nil {
		return t
	}
	if len(cs) == 0 {
		return &corev1.Container{}
	}
	return &cs[0]
}

func servicePorts(name string, c *corev1.Container) []corev1.ServicePort {
	if len(c.Ports) == 0 {
		return []corev1.ServicePort{{Name: name, Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}}
	}
	ports := make([]corev1.ServicePort, 0, len(c.Ports))
	for i, p := range c.Ports {
		sp := corev1.ServicePort{Name: p.Name, Port: p.ContainerPort, TargetPort: intstr.FromInt32(p.ContainerPort), Protocol: p.Protocol}
		if i == 0 {
			sp.Port = 80
		} else if sp.Protocol == "" {
			sp.Protocol = corev1.ProtocolTCP
		}
		if strings.Contains(p.Name, "grpc") || strings.Contains(p.Name, "h2c") {
			sp.AppProtocol = ptr("kubernetes.io/h2c")
		}
		ports = append(ports, sp)
	}
	return ports
}
