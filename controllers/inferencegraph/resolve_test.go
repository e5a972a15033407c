package inferencegraph

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/scheme"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/steps/graph"
)

const ns = "team"

func chain(steps ...v1alpha1.InferenceStep) *v1alpha1.InferenceGraph {
	return &v1alpha1.InferenceGraph{
		ObjectMeta: metav1.ObjectMeta{Name: "chain", Namespace: ns},
		Spec: v1alpha1.InferenceGraphSpec{Nodes: map[string]v1alpha1.InferenceRouter{
			"root": {RouterType: v1alpha1.Sequence, Steps: steps},
		}},
	}
}

func callService(name string) v1alpha1.InferenceStep {
	return v1alpha1.InferenceStep{InferenceTarget: v1alpha1.InferenceTarget{ServiceName: name}}
}

type isvcOption func(*v1beta1.InferenceService)

func readyISVC(name string, opts ...isvcOption) *v1beta1.InferenceService {
	uri := "gs://bucket/" + name
	isvc := &v1beta1.InferenceService{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
			SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}}},
		Status: v1beta1.InferenceServiceStatus{
			Status:  common.Status{Conditions: common.Conditions{{Type: v1beta1.Ready, Status: corev1.ConditionTrue}}},
			Address: &common.Addressable{URL: common.NewURL("http://" + name + "-predictor." + ns + ".svc.cluster.local")},
		},
	}
	for _, o := range opts {
		o(isvc)
	}
	return isvc
}

func notReady(isvc *v1beta1.InferenceService) {
	isvc.Status.Conditions[0].Status = corev1.ConditionFalse
	isvc.Status.Lifecycle = &common.Lifecycle{State: "Deploying", Message: "waiting for Deployment " + isvc.Name + "-predictor"}
}

func withRuntime(runtime string) isvcOption {
	return func(isvc *v1beta1.InferenceService) {
		uri := "gs://bucket/m"
		isvc.Spec.Predictor.SKLearn = nil
		isvc.Spec.Predictor.Model = &v1beta1.ModelSpec{ModelFormat: v1beta1.ModelFormat{Name: "sklearn"}, Runtime: &runtime,
			PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}
	}
}

func resolveWith(t *testing.T, ig *v1alpha1.InferenceGraph, objs ...client.Object) *world {
	t.Helper()
	c := fake.NewClientBuilder().WithScheme(scheme.New()).WithObjects(objs...).Build()
	w := &world{cfg: config.Default()}
	require.NoError(t, w.resolve(context.Background(), c, ig))
	return w
}

func TestResolve(t *testing.T) {
	srV2 := &v1alpha1.ServingRuntime{ObjectMeta: metav1.ObjectMeta{Name: "mlserver", Namespace: ns},
		Spec: v1alpha1.ServingRuntimeSpec{ProtocolVersions: []v1alpha1.InferenceServiceProtocol{"grpc-v2", "v2"}}}
	csrGRPC := &v1alpha1.ClusterServingRuntime{ObjectMeta: metav1.ObjectMeta{Name: "grpc-only"},
		Spec: v1alpha1.ServingRuntimeSpec{ProtocolVersions: []v1alpha1.InferenceServiceProtocol{"grpc-v2"}}}
	deleting := readyISVC("going")
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Unix(1, 0)}
	deleting.Finalizers = []string{"inferenceservice.finalizers"}
	cases := []struct {
		why         string
		ig          *v1alpha1.InferenceGraph
		objs        []client.Object
		kind        machine.ProblemKind
		reason      string
		messageHas  string
		resolvedURL string
	}{
		{"a missing service is named with its step", chain(callService("cat-dog")), nil,
			machine.ServiceProblem, machine.ReasonServiceNotFound, "waiting for InferenceService cat-dog (spec.nodes.root.steps[0].serviceName): it does not exist in namespace team", ""},
		{"a service that is not Ready says where it is", chain(callService("iris")), []client.Object{readyISVC("iris", notReady)},
			machine.ServiceProblem, machine.ReasonServiceNotReady, "it is not Ready (state Deploying: waiting for Deployment iris-predictor)", ""},
		{"a service being deleted is not ready", chain(callService("going")), []client.Object{deleting},
			machine.ServiceProblem, machine.ReasonServiceNotReady, "it is being deleted", ""},
		{"a Ready service resolves to address plus v1 path", chain(callService("iris")), []client.Object{readyISVC("iris")},
			machine.NoProblem, "", "", "http://iris-predictor.team.svc.cluster.local/v1/models/iris:predict"},
		{"an explicit namespaced runtime decides the protocol", chain(callService("iris")), []client.Object{readyISVC("iris", withRuntime("mlserver")), srV2},
			machine.NoProblem, "", "", "http://iris-predictor.team.svc.cluster.local/v2/models/iris/infer"},
		{"a missing runtime keeps the graph waiting", chain(callService("iris")), []client.Object{readyISVC("iris", withRuntime("gone"))},
			machine.ServiceProblem, machine.ReasonRuntimeNotFound, "its runtime gone exists neither", ""},
		{"a cluster runtime without v1 or v2 is a spec problem", chain(callService("iris")), []client.Object{readyISVC("iris", withRuntime("grpc-only")), csrGRPC},
			machine.SpecProblem, ReasonUnsupportedProtocol, "spec.nodes.root.steps[0]: InferenceService iris uses runtime grpc-only", ""},
		{"a graph without root is rejected before any lookup", &v1alpha1.InferenceGraph{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: ns}}, nil,
			machine.SpecProblem, graph.ReasonInvalidGraphSpec, "spec.nodes.root is missing", ""},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			w := resolveWith(t, c.ig, c.objs...)
			assert.Equal(t, c.kind, w.problem.Kind)
			assert.Equal(t, c.reason, w.problem.Reason)
			assert.Contains(t, w.problem.Message, c.messageHas)
			if c.resolvedURL == "" {
				assert.Nil(t, w.desired)
				return
			}
			require.NotNil(t, w.desired)
			assert.Contains(t, w.desired.Deployment.Spec.Template.Spec.Containers[0].Args[1], `"serviceUrl":"`+c.resolvedURL+`"`)
			assert.Equal(t, "chain-team.example.com", w.host)
		})
	}
}

func TestResolveStopsAtABrokenConfigKey(t *testing.T) {
	c := fake.NewClientBuilder().WithScheme(scheme.New()).Build()
	w := &world{}
	cm := &corev1.ConfigMap{Data: map[string]string{config.KeyRouter: `{"imagePullPolicy": "Sometimes"}`}}
	w.cfg, w.cfgErrs = config.FromConfigMap(cm)
	require.NoError(t, w.resolve(context.Background(), c, chain(callService("iris"))))
	assert.Equal(t, machine.ConfigProblem, w.problem.Kind)
	assert.Contains(t, w.problem.Message, "imagePullPolicy")
}
