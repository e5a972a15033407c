package battery_test

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/internal/kubesim"
	igmachine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	isvcmachine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/test/battery"
)

// deploymentsAvailable plays the Deployment controller: every Deployment in
// the namespace has rolled out its current generation.
func deploymentsAvailable(ctx context.Context, c client.Client, ns string) error {
	list := &appsv1.DeploymentList{}
	if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range list.Items {
		d := &list.Items[i]
		before := d.Status.DeepCopy()
		kubesim.Available(d, nil, metav1.Now())
		if equality.Semantic.DeepEqual(before, &d.Status) {
			continue
		}
		if err := c.Status().Update(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

func TestInferenceServiceBattery(t *testing.T) {
	battery.Plan[isvcmachine.State, isvcmachine.Trigger, isvcmachine.Observation]{
		Definition: isvcmachine.Definition,
		Controller: "inferenceservice",
		Seed: battery.Objects[isvcmachine.State](isvcmachine.MachineName, func(ns, name string) client.Object {
			return &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
					SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: ptr("gs://bucket/" + name)}}}}}
		}, func(o client.Object) **common.Lifecycle { return &o.(*v1beta1.InferenceService).Status.Lifecycle }),
		Goal:  isvcmachine.Ready,
		World: deploymentsAvailable,
		Children: []battery.Child{
			battery.OnePer(func() client.ObjectList { return &appsv1.DeploymentList{} }),
			battery.OnePer(func() client.ObjectList { return &corev1.ServiceList{} }),
			battery.OnePer(func() client.ObjectList { return &networkingv1.IngressList{} }),
			battery.OnePer(func() client.ObjectList { return &autoscalingv2.HorizontalPodAutoscalerList{} }),
		},
	}.Run(t, newHost(t))
}

func TestInferenceGraphBattery(t *testing.T) {
	battery.Plan[igmachine.State, igmachine.Trigger, igmachine.Observation]{
		Definition: igmachine.Definition,
		Controller: "inferencegraph",
		Seed: battery.Objects[igmachine.State](igmachine.MachineName, func(ns, name string) client.Object {
			return &v1alpha1.InferenceGraph{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: v1alpha1.InferenceGraphSpec{Nodes: map[string]v1alpha1.InferenceRouter{
					v1alpha1.GraphRootNodeName: {RouterType: v1alpha1.Sequence, Steps: []v1alpha1.InferenceStep{
						{StepName: "a", InferenceTarget: v1alpha1.InferenceTarget{ServiceURL: "http://a.example.com/v1/models/a:predict"}}}}}}}
		}, func(o client.Object) **common.Lifecycle { return &o.(*v1alpha1.InferenceGraph).Status.Lifecycle }),
		Goal:  igmachine.Ready,
		World: deploymentsAvailable,
		Children: []battery.Child{
			battery.OnePer(func() client.ObjectList { return &appsv1.DeploymentList{} }),
			battery.OnePer(func() client.ObjectList { return &corev1.ServiceList{} }),
			battery.OnePer(func() client.ObjectList { return &autoscalingv2.HorizontalPodAutoscalerList{} }),
		},
	}.Run(t, newHost(t))
}

func ptr[T any](v T) *T { return &v }
