package localmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

func cacheTestGroup(terms ...corev1.NodeSelectorTerm) *v1alpha1.LocalModelNodeGroup {
	return &v1alpha1.LocalModelNodeGroup{ObjectMeta: metav1.ObjectMeta{Name: "gpu"}, Spec: v1alpha1.LocalModelNodeGroupSpec{
		PersistentVolumeSpec: corev1.PersistentVolumeSpec{NodeAffinity: &corev1.VolumeNodeAffinity{
			Required: &corev1.NodeSelector{NodeSelectorTerms: terms}}}}}
}

func cacheTestExpr(key string, op corev1.NodeSelectorOperator, values ...string) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: op, Values: values}}}
}

func cacheTestNode(name string, l map[string]string, ready corev1.ConditionStatus) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: l}}
	if ready != "" {
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse}, {Type: corev1.NodeReady, Status: ready}}
	}
	return n
}

func TestInNodeGroup(t *testing.T) {
	gpu := map[string]string{"pool": "gpu", "cores": "8"}
	cases := []struct {
		name  string
		group *v1alpha1.LocalModelNodeGroup
		want  bool
	}{
		{"In matches", cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpIn, "cpu", "gpu")), true},
		{"In misses", cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpIn, "cpu")), false},
		{"NotIn", cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpNotIn, "cpu")), true},
		{"NotIn of a missing label", cacheTestGroup(cacheTestExpr("zone", corev1.NodeSelectorOpNotIn, "a")), true},
		{"Exists", cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpExists)), true},
		{"DoesNotExist", cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpDoesNotExist)), false},
		{"Gt", cacheTestGroup(cacheTestExpr("cores", corev1.NodeSelectorOpGt, "4")), true},
		{"Lt", cacheTestGroup(cacheTestExpr("cores", corev1.NodeSelectorOpLt, "4")), false},
		{"Gt of a non-number", cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpGt, "4")), false},
		{"terms are ORed", cacheTestGroup(cacheTestExpr("pool", corev1.NodeSelectorOpIn, "cpu"), cacheTestExpr("cores", corev1.NodeSelectorOpIn, "8")), true},
		{"requirements of a term are ANDed", cacheTestGroup(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{
			{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{"gpu"}},
			{Key: "cores", Operator: corev1.NodeSelectorOpIn, Values: []string{"16"}}}}), false},
		{"an empty term matches nothing", cacheTestGroup(corev1.NodeSelectorTerm{}), false},
		{"metadata.name field", cacheTestGroup(corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"n1"}}}}), true},
		{"an unsupported field", cacheTestGroup(corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{
			{Key: "spec.unschedulable", Operator: corev1.NodeSelectorOpIn, Values: []string{"false"}}}}), false},
		{"no required affinity has no members", &v1alpha1.LocalModelNodeGroup{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, InNodeGroup(c.group, cacheTestNode("n1", gpu, corev1.ConditionTrue)))
		})
	}
}

func TestNodeReady(t *testing.T) {
	assert.True(t, NodeReady(cacheTestNode("n", nil, corev1.ConditionTrue)))
	assert.False(t, NodeReady(cacheTestNode("n", nil, corev1.ConditionUnknown)))
	assert.False(t, NodeReady(cacheTestNode("n", nil, "")), "a node that never reported is not Ready")
}
