package localmodel

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// InNodeGroup reports whether node belongs to group: whether it matches the
// required node affinity of the group's PersistentVolume template, as the
// scheduler matches a volume's affinity. A template without required node
// affinity has no members, as in KServe.
func InNodeGroup(group *v1alpha1.LocalModelNodeGroup, node *corev1.Node) bool {
	aff := group.Spec.PersistentVolumeSpec.NodeAffinity
	if aff == nil || aff.Required == nil {
		return false
	}
	for i := range aff.Required.NodeSelectorTerms {
		if termMatches(&aff.Required.NodeSelectorTerms[i], node) {
			return true
		}
	}
	return false
}

// termMatches: the terms of a selector are ORed, the requirements of a term
// ANDed; a term with no requirement matches nothing.
func termMatches(t *corev1.NodeSelectorTerm, node *corev1.Node) bool {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return false
	}
	for _, r := range t.MatchExpressions {
		v, ok := node.Labels[r.Key]
		if !requirementMatches(r, v, ok) {
			return false
		}
	}
	for _, r := range t.MatchFields {
		// metadata.name is the only field node selectors support.
		if r.Key != "metadata.name" || (r.Operator != corev1.NodeSelectorOpIn && r.Operator != corev1.NodeSelectorOpNotIn) {
			return false
		}
		if !requirementMatches(r, node.Name, true) {
			return false
		}
	}
	return true
}

func requirementMatches(r corev1.NodeSelectorRequirement, value string, present bool) bool {
	switch r.Operator {
	case corev1.NodeSelectorOpIn:
		return present && contains(r.Values, value)
	case corev1.NodeSelectorOpNotIn:
		return !present || !contains(r.Values, value)
	case corev1.NodeSelectorOpExists:
		return present
	case corev1.NodeSelectorOpDoesNotExist:
		return !present
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		return present && len(r.Values) == 1 && compareInts(value, r.Values[0], r.Operator)
	}
	return false
}

func compareInts(value, bound string, op corev1.NodeSelectorOperator) bool {
	v, err1 := strconv.ParseInt(value, 10, 64)
	b, err2 := strconv.ParseInt(bound, 10, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	if op == corev1.NodeSelectorOpGt {
		return v > b
	}
	return v < b
}

// NodeReady reports whether the node's Ready condition is True.
func NodeReady(node *corev1.Node) bool {
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
