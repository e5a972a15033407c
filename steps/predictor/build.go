package predictor

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"strings"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/steps/runtime"
	"github.com/fsmserve/fsmserve/steps/serving"
)

// ReasonInvalidPredictorSpec is KServe's reason for a predictor that cannot be built.
const ReasonInvalidPredictorSpec = "InvalidPredictorSpec"

// SpecError says the predictor cannot be built from the spec and runtime.
type SpecError struct{ Message string }

func (e *SpecError) Error() string { return e.Message }

// Desired is what the predictor's children should look like.
type Desired struct {
	// Children are the Deployment, Service and (for the hpa class, the
	// default) HPA.
	serving.Children
	// AutoscalerClass is the class in effect.
	AutoscalerClass v1beta1.AutoscalerClass
}

// RuntimeRequest is what the (normalized) predictor asks of a runtime; false
// for a predictor with custom containers, which needs none.
func RuntimeRequest(p *v1beta1.PredictorSpec) (runtime.Request, bool) {
	if p.Model == nil {
		return runtime.Request{}, false
	}
	req := runtime.Request{Runtime: p.GetRuntime(), Format: p.Model.ModelFormat.Name, MultiNode: p.WorkerSpec != nil}
	if v := p.Model.ModelFormat.Version; v != nil {
		req.Version = *v
	}
	if p.Model.ProtocolVersion != nil {
		req.Protocol = string(*p.Model.ProtocolVersion)
	}
	return req, true
}

// ApplyRuntime records the chosen runtime in the in-memory spec: model.runtime,
// the runtime's default protocol, and the server's defaults.
func ApplyRuntime(isvc *v1beta1.InferenceService, rt *runtime.Runtime) {
	m := isvc.Spec.Predictor.Model
	name := rt.Name
	m.Runtime = &name
	server := serverType(rt.Name, rt.Annotations)
	applyServerDefaults(isvc, server)
	if m.ProtocolVersion == nil {
		if p := runtime.DefaultProtocol(rt.Spec); p != "" {
			proto := v1beta1.InferenceServiceProtocol(p)
			m.ProtocolVersion = &proto
		}
	}
}

// Build returns the desired predictor children for a normalized InferenceService
// (see Normalize and ApplyRuntime) and its runtime (nil for custom containers).
func Build(isvc *v1beta1.InferenceService, rt *runtime.Runtime, cfg *config.Config) (*Desired, error) {
	pred := &isvc.Spec.Predictor
	name := isvc.PredictorDeploymentName()
	var runtimePod *v1alpha1.ServingRuntimePodSpec
	var containers []corev1.Container
	var runtimeLabels, runtimeAnnotations map[string]string
	if rt != nil {
		runtimePod = &rt.Spec.ServingRuntimePodSpec
		runtimeLabels, runtimeAnnotations = rt.Spec.Labels, rt.Spec.Annotations
		cs, err := runtimeContainers(isvc, rt)
		if err != nil {
			return nil, &SpecError{Message: err.Error()}
		}
		containers = cs
	} else {
		if len(pred.Containers) == 0 {
			return nil, &SpecError{Message: "the predictor sets no model format and no containers; set spec.predictor.model (or a framework such as sklearn) or spec.predictor.containers"}
		}
		containers = customContainers(pred)
	}
	finishContainers(containers, isvc.Name)
	pod, err := mergePodSpec(runtimePod, &pred.PodSpec)
	if err != nil {
		return nil, &SpecError{Message: err.Error()}
	}
	pod.Containers = containers
	meta := metav1.ObjectMeta{
		Name: name, Namespace: isvc.Namespace,
		Labels:          componentLabels(isvc, runtimeLabels, name),
		Annotations:     componentAnnotations(isvc, runtimeAnnotations, &cfg.InferenceService),
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(isvc, v1beta1.GroupVersion.WithKind("InferenceService"))},
	}
	class := autoscalerClass(isvc)
	d := &Desired{AutoscalerClass: class, Children: serving.Children{
		Deployment: deployment(meta, pod, pred, class, &cfg.Deploy),
		Service:    service(withoutInternal(meta), containers, pred, cfg.Service.ServiceClusterIPNone),
	}}
	if class == v1beta1.AutoscalerClassHPA {
		d.HPA = hpa(withoutInternal(meta), pred)
	}
	return d, nil
}

// autoscalerClass is the serving.kserve.io/autoscalerClass annotation of the
// InferenceService or its predictor, hpa by default.
func autoscalerClass(isvc *v1beta1.InferenceService) v1beta1.AutoscalerClass {
	for _, src := range []map[string]string{isvc.Spec.Predictor.Annotations, isvc.Annotations} {
		if c, ok := src[v1beta1.AutoscalerClassAnnotation]; ok && c != "" {
			return v1beta1.AutoscalerClass(c)
		}
	}
	return v1beta1.AutoscalerClassHPA
}

func copyMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	return *m.DeepCopy()
}

// withoutInternal copies m without the internal.serving.kserve.io
// annotations. They tell the pod mutator what to inject; only the
// Deployment (and its pods) needs them. On the Service and the autoscaler
// they would change with every new model version, and so would they.
func withoutInternal(m metav1.ObjectMeta) metav1.ObjectMeta {
	out := copyMeta(m)
	for k := range out.Annotations {
		if strings.HasPrefix(k, v1beta1.InternalAnnotationPrefix+"/") {
			delete(out.Annotations, k)
		}
	}
	return out
}
