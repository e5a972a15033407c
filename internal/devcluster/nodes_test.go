package devcluster

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

func TestFakeNodes(t *testing.T) {
	tests := []struct {
		name     string
		n, gpus  int
		wantGPUs []bool
	}{
		{"default three, two with GPUs", 3, 2, []bool{true, true, false}},
		{"no GPUs", 2, 0, []bool{false, false}},
		{"all GPUs", 1, 1, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := fakeNodes(tt.n, tt.gpus, DefaultNodeSize)
			assert.Len(t, nodes, tt.n)
			for i, n := range nodes {
				assert.Equal(t, NodeName(i), n.Name)
				_, hasGPU := n.Status.Capacity[GPUResource]
				assert.Equal(t, tt.wantGPUs[i], hasGPU, "node %d gpu", i)
				_, allocGPU := n.Status.Allocatable[GPUResource]
				assert.Equal(t, tt.wantGPUs[i], allocGPU, "node %d allocatable gpu", i)
			}
		})
	}
}

func TestFakeNodeLooksLikeAKubeletRegisteredIt(t *testing.T) {
	n := fakeNode(0, true, DefaultNodeSize)
	assert.Equal(t, "fsmserve-node-0", n.Name)
	assert.Equal(t, map[string]string{"kwok.x-k8s.io/node": "fake"}, n.Annotations)
	assert.Equal(t, map[string]string{
		"kubernetes.io/hostname":           "fsmserve-node-0",
		"fault.fsmserve.io/stages":         "true",
		"kubernetes.io/os":                 "linux",
		"kubernetes.io/arch":               "amd64",
		"node.kubernetes.io/instance-type": "fsmserve-gpu-8",
		"type":                             "kwok",
		"nvidia.com/gpu.present":           "true",
	}, n.Labels)
	for _, list := range []corev1.ResourceList{n.Status.Capacity, n.Status.Allocatable} {
		assertQuantity(t, "768", list[corev1.ResourceCPU])
		assertQuantity(t, "3Ti", list[corev1.ResourceMemory])
		assertQuantity(t, "800", list[corev1.ResourcePods])
		assertQuantity(t, "8", list["nvidia.com/gpu"])
	}
	assert.Empty(t, n.Spec.Taints, "ordinary pods must schedule on the fake nodes")

	small, err := ParseNodeSize("16", "64Gi", "")
	assert.NoError(t, err)
	cpu := fakeNode(2, false, small)
	assert.Equal(t, "fsmserve-cpu-16", cpu.Labels["node.kubernetes.io/instance-type"])
	assertQuantity(t, "800", cpu.Status.Capacity[corev1.ResourcePods])
	assert.NotContains(t, cpu.Labels, "nvidia.com/gpu.present")
}

func TestParseNodeSizeRefusesNonsense(t *testing.T) {
	for _, bad := range [][3]string{{"lots", "", ""}, {"", "-1Gi", ""}, {"", "", "0"}} {
		if _, err := ParseNodeSize(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("ParseNodeSize%v accepted", bad)
		}
	}
}

// The default nodes hold the benchmark's 1,000 sklearn predictors (1 CPU,
// 2Gi, one pod each) twice, for a rolling update of all of them.
func TestDefaultNodesHoldAThousandPredictorsRollingOut(t *testing.T) {
	n := int64(DefaultNodes)
	assert.GreaterOrEqual(t, n*DefaultNodeSize.CPU.Value(), int64(2000))
	assert.GreaterOrEqual(t, n*DefaultNodeSize.Memory.Value(), int64(2000)*2<<30)
	assert.GreaterOrEqual(t, n*DefaultNodeSize.Pods.Value(), int64(2000))
}

func TestIsNodeReady(t *testing.T) {
	tests := []struct {
		name  string
		conds []corev1.NodeCondition
		want  bool
	}{
		{"no conditions", nil, false},
		{"ready", []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}, true},
		{"not ready", []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse}}, false},
		{"other condition only", []corev1.NodeCondition{{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, isNodeReady(&corev1.Node{Status: corev1.NodeStatus{Conditions: tt.conds}}))
		})
	}
}

func assertQuantity(t *testing.T, want string, got resource.Quantity) {
	t.Helper()
	w := resource.MustParse(want)
	assert.Zero(t, w.Cmp(got), "want %s, got %s", want, got.String())
}

func TestTheStagesKwokPlaysAreItsDefaultsAndOurFaults(t *testing.T) {
	dir := t.TempDir()
	l := newLayout(dir, dir)
	require.NoError(t, os.MkdirAll(l.kwokDir, 0o755))
	require.NoError(t, writeStages(l))
	raw, err := os.ReadFile(stagesFile(l))
	require.NoError(t, err)
	var names []string
	for _, doc := range strings.Split(string(raw), "\n---\n") {
		var stage struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Spec struct {
				ResourceRef struct{ Kind string } `json:"resourceRef"`
			} `json:"spec"`
		}
		require.NoError(t, yaml.Unmarshal([]byte(doc), &stage), doc)
		assert.Equal(t, "Stage", stage.Kind)
		assert.Equal(t, "Pod", stage.Spec.ResourceRef.Kind, stage.Metadata.Name)
		names = append(names, stage.Metadata.Name)
	}
	assert.Equal(t, []string{"pod-ready", "pod-complete", "pod-delete", "fsmserve-fault-not-ready",
		"fsmserve-fault-image-pull", "fsmserve-fault-crash-loop", "fsmserve-fault-cleared"}, names)
}
