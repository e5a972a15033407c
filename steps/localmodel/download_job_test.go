package localmodel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/golden"
)

var (
	node    = &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: "gpu-node-1", UID: "node-uid"}}
	llama   = v1alpha1.LocalModelInfo{SourceModelUri: "gs://models/llama-3", ModelName: "llama", NodeGroup: "gpu"}
	teamBrt = v1alpha1.LocalModelInfo{SourceModelUri: "s3://team-a/bert", ModelName: "bert", Namespace: "team-a", NodeGroup: "gpu", ServiceAccountName: "s3-reader"}
	fsGroup = int64(1000)
)

func localModelConfig() config.LocalModelConfig {
	c := config.Default().LocalModel
	c.FSGroup = &fsGroup
	return c
}

func s3Container(name string, disabled bool) v1alpha1.ClusterStorageContainer {
	return v1alpha1.ClusterStorageContainer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Disabled:   &disabled,
		Spec: v1alpha1.StorageContainerSpec{
			Container:           corev1.Container{Name: "s3-downloader", Image: "example.com/s3-downloader:1"},
			SupportedUriFormats: []v1alpha1.SupportedUriFormat{{Prefix: "s3://"}},
			WorkloadType:        v1alpha1.LocalModelDownloadJob,
		},
	}
}

func TestDownloadJobGolden(t *testing.T) {
	cases := []struct {
		file string
		in   JobInput
	}{
		{"testdata/job-cluster-cache.yaml", JobInput{Node: node, Model: llama, NodeGroup: "gpu", Config: localModelConfig(), Attempt: 1,
			TraceParent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}},
		{"testdata/job-namespace-cache-storage-container.yaml", JobInput{Node: node, Model: teamBrt, NodeGroup: "gpu", Config: localModelConfig(), Attempt: 2,
			StorageContainers: []v1alpha1.ClusterStorageContainer{s3Container("a-disabled", true), s3Container("b-s3", false)}}},
	}
	for _, c := range cases {
		job, problem := DownloadJob(c.in)
		require.Nil(t, problem)
		out, err := yaml.Marshal(job)
		require.NoError(t, err)
		golden.Assert(t, c.file, string(out))
	}
}

func TestDownloadJobProblems(t *testing.T) {
	noGroup := llama
	noGroup.NodeGroup = ""
	_, problem := DownloadJob(JobInput{Node: node, Model: noGroup, Config: localModelConfig()})
	require.NotNil(t, problem)
	assert.Equal(t, ReasonNodeGroupUnknown, problem.Reason)
	assert.Contains(t, problem.Message, "nodeGroup")

	bad := s3Container("broken", false)
	bad.Spec.SupportedUriFormats = []v1alpha1.SupportedUriFormat{{Regex: "("}}
	_, problem = DownloadJob(JobInput{Node: node, Model: teamBrt, NodeGroup: "gpu", Config: localModelConfig(),
		StorageContainers: []v1alpha1.ClusterStorageContainer{bad}})
	require.NotNil(t, problem)
	assert.Equal(t, ReasonInvalidStorageContainer, problem.Reason)
	assert.Contains(t, problem.Message, "broken")
}

func TestDownloadContainerChoice(t *testing.T) {
	initContainer := s3Container("init", false)
	initContainer.Spec.WorkloadType = v1alpha1.InitContainer
	cases := []struct {
		why        string
		uri        string
		containers []v1alpha1.ClusterStorageContainer
		want       string
	}{
		{"no storage container: KServe's default", "s3://x", nil, DownloadContainerName},
		{"an init-container storage container is not a download Job's", "s3://x", []v1alpha1.ClusterStorageContainer{initContainer}, DownloadContainerName},
		{"a disabled one is skipped", "s3://x", []v1alpha1.ClusterStorageContainer{s3Container("a", true)}, DownloadContainerName},
		{"one that does not support the URI is skipped", "gs://x", []v1alpha1.ClusterStorageContainer{s3Container("a", false)}, DownloadContainerName},
		{"the first match by name wins", "s3://x", []v1alpha1.ClusterStorageContainer{s3Container("z", false), s3Container("a", false)}, "s3-downloader"},
	}
	for _, c := range cases {
		got, problem := downloadContainer(c.uri, "img", c.containers)
		require.Nil(t, problem, c.why)
		assert.Equal(t, c.want, got.Name, c.why)
	}
}

func TestDownloadJobNames(t *testing.T) {
	long := v1alpha1.LocalModelInfo{ModelName: strings.Repeat("m", 80)}
	names := map[string]bool{}
	for _, c := range []struct {
		node string
		m    v1alpha1.LocalModelInfo
	}{
		{"gpu-node-1", llama},
		{"gpu-node-2", llama},
		{"gpu-node-1", teamBrt},
		{"gpu-node-1", v1alpha1.LocalModelInfo{ModelName: "bert", Namespace: "team-b"}},
		{"gpu-node-1", v1alpha1.LocalModelInfo{ModelName: "bert"}},
		// Hyphens make "a-b" on node "c" and "a" on node "b-c" read alike; the
		// hash tells them apart.
		{"c", v1alpha1.LocalModelInfo{ModelName: "a-b"}},
		{"b-c", v1alpha1.LocalModelInfo{ModelName: "a"}},
		{"node", long},
	} {
		name := DownloadJobName(c.node, &c.m)
		assert.Empty(t, validation.IsDNS1123Label(name), name)
		assert.Equal(t, name, DownloadJobName(c.node, &c.m), "deterministic")
		assert.False(t, names[name], "%s is not unique", name)
		names[name] = true
	}
	assert.True(t, strings.HasPrefix(DownloadJobName("gpu-node-1", &llama), "llama-gpu-node-1-"), "KServe's {model}-{node} prefix")
}

func TestDownloadJobSelectorKeepsCachesApart(t *testing.T) {
	clusterBert := v1alpha1.LocalModelInfo{ModelName: "bert"}
	ofCluster := labels.Set(DownloadJobLabels("n", &clusterBert, 1))
	ofTeamA := labels.Set(DownloadJobLabels("n", &teamBrt, 3))
	assert.True(t, DownloadJobSelector("n", &clusterBert).Matches(ofCluster))
	assert.False(t, DownloadJobSelector("n", &clusterBert).Matches(ofTeamA), "a cluster cache never adopts a namespace cache's Job")
	assert.True(t, DownloadJobSelector("n", &teamBrt).Matches(ofTeamA), "any attempt matches")
	assert.False(t, DownloadJobSelector("other", &teamBrt).Matches(ofTeamA))
	assert.True(t, NodeJobSelector("n").Matches(ofTeamA))
	key, ok := ModelKeyOfJob(nil, ofTeamA)
	assert.True(t, ok)
	assert.Equal(t, "team-a/bert", key)
	assert.Equal(t, 3, AttemptOfJob(ofTeamA))
	assert.Equal(t, 0, AttemptOfJob(nil), "a Job KServe made has no attempt")
}

func TestJobFingerprintIgnoresAttemptAndTrace(t *testing.T) {
	in := JobInput{Node: node, Model: llama, NodeGroup: "gpu", Config: localModelConfig(), Attempt: 1, TraceParent: "a"}
	first, _ := DownloadJob(in)
	in.Attempt, in.TraceParent = 2, "b"
	second, _ := DownloadJob(in)
	assert.Equal(t, JobFingerprint(first), JobFingerprint(second))
	in.Config.DefaultJobImage = "example.com/fixed:2"
	fixed, _ := DownloadJob(in)
	assert.NotEqual(t, JobFingerprint(first), JobFingerprint(fixed), "a new image is worth a retry")
}
