package devcluster

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/fsmserve/fsmserve/internal/podfault"
)

// GPUResource is the extended resource the GPU nodes advertise.
const GPUResource corev1.ResourceName = "nvidia.com/gpu"

const (
	nodeGPUs     = "8"
	nodeNameBase = "fsmserve-node-"
)

// NodeSize is the capacity every fake node advertises.
type NodeSize struct {
	CPU, Memory, Pods resource.Quantity
}

// DefaultNodeSize lets the default three nodes hold 1,000 of KServe's
// sklearn predictors (1 CPU and 2Gi each) twice over, as a rolling update
// of all of them needs (a new pod starts before its old one goes): fake
// nodes cost nothing, and a benchmark must measure fsmserve, not a full
// cluster.
var DefaultNodeSize = NodeSize{CPU: resource.MustParse("768"), Memory: resource.MustParse("3Ti"), Pods: resource.MustParse("800")}

// ParseNodeSize reads a size from three quantities; "" keeps the default's.
func ParseNodeSize(cpu, memory, pods string) (NodeSize, error) {
	size := DefaultNodeSize
	for _, f := range []struct {
		name, value string
		into        *resource.Quantity
	}{{"cpu", cpu, &size.CPU}, {"memory", memory, &size.Memory}, {"pods", pods, &size.Pods}} {
		if f.value == "" {
			continue
		}
		q, err := resource.ParseQuantity(f.value)
		if err != nil || q.Sign() <= 0 {
			return size, fmt.Errorf("node %s %q: want a positive Kubernetes quantity", f.name, f.value)
		}
		*f.into = q
	}
	return size, nil
}

// fakeNodeLabelKey marks the nodes kwok plays, as kwok's own examples do.
const fakeNodeLabelKey, fakeNodeLabelValue = "type", "kwok"

// FakeNodeLabels select the dev cluster's fake nodes.
func FakeNodeLabels() map[string]string {
	return map[string]string{fakeNodeLabelKey: fakeNodeLabelValue}
}

// NodeName is the name of the i-th fake node.
func NodeName(i int) string { return fmt.Sprintf("%s%d", nodeNameBase, i) }

// fakeNode builds the i-th node as a kubelet would register it, annotated so
// kwok (and only kwok) manages it. GPU nodes advertise 8 nvidia.com/gpu.
func fakeNode(i int, gpu bool, size NodeSize) *corev1.Node {
	name := NodeName(i)
	instanceType := "fsmserve-cpu-" + size.CPU.String()
	resources := corev1.ResourceList{
		corev1.ResourceCPU:    size.CPU,
		corev1.ResourceMemory: size.Memory,
		corev1.ResourcePods:   size.Pods,
	}
	labels := map[string]string{
		corev1.LabelHostname:           name,
		corev1.LabelOSStable:           "linux",
		corev1.LabelArchStable:         "amd64",
		corev1.LabelInstanceTypeStable: instanceType,
		fakeNodeLabelKey:               fakeNodeLabelValue,
		podfault.NodeLabel:             "true",
	}
	if gpu {
		resources[GPUResource] = resource.MustParse(nodeGPUs)
		labels[corev1.LabelInstanceTypeStable] = "fsmserve-gpu-8"
		labels["nvidia.com/gpu.present"] = "true"
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Labels:      labels,
			Annotations: map[string]string{fakeNodeAnnotation: fakeNodeValue},
		},
		Status: corev1.NodeStatus{
			Capacity:    resources,
			Allocatable: resources.DeepCopy(),
			NodeInfo: corev1.NodeSystemInfo{
				OperatingSystem: "linux",
				Architecture:    "amd64",
				KubeletVersion:  KubernetesVersion,
			},
		},
	}
}

// fakeNodes builds n nodes; the first gpuNodes of them have GPUs.
func fakeNodes(n, gpuNodes int, size NodeSize) []*corev1.Node {
	nodes := make([]*corev1.Node, 0, n)
	for i := range n {
		nodes = append(nodes, fakeNode(i, i < gpuNodes, size))
	}
	return nodes
}

// createNodes registers the nodes, keeping any that already exist.
func createNodes(ctx context.Context, cs kubernetes.Interface, nodes []*corev1.Node) error {
	for _, n := range nodes {
		_, err := cs.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating node %s: %w", n.Name, err)
		}
	}
	return nil
}

// nodesReady reports whether every named node has condition Ready=True.
func nodesReady(ctx context.Context, cs kubernetes.Interface, names []string) (bool, error) {
	for _, name := range names {
		n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if !isNodeReady(n) {
			return false, fmt.Errorf("node %s is not Ready yet", name)
		}
	}
	return true, nil
}

func isNodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
