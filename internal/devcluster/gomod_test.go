package devcluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sampleKubernetesGoMod = `module k8s.io/kubernetes

go 1.25.0

require (
	k8s.io/api v0.0.0
	k8s.io/client-go v0.0.0
)

replace k8s.io/kubectl => ./staging/src/k8s.io/kubectl // a single-line form

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/client-go => ./staging/src/k8s.io/client-go
	// k8s.io/commented => ./staging/src/k8s.io/commented
	github.com/example/fork => github.com/other/fork v1.2.3
	k8s.io/apiextensions-apiserver => ./staging/src/k8s.io/apiextensions-apiserver
)
`

func TestStagingReplaces(t *testing.T) {
	got, err := stagingReplaces([]byte(sampleKubernetesGoMod), "v0.35.4")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"k8s.io/api => k8s.io/api v0.35.4",
		"k8s.io/apiextensions-apiserver => k8s.io/apiextensions-apiserver v0.35.4",
		"k8s.io/client-go => k8s.io/client-go v0.35.4",
		"k8s.io/kubectl => k8s.io/kubectl v0.35.4",
	}, got)
}

func TestStagingReplacesNoneFound(t *testing.T) {
	_, err := stagingReplaces([]byte("module x\n\nreplace a => b v1.0.0\n"), "v0.35.4")
	assert.ErrorContains(t, err, "staging")
}

func TestStagingVersion(t *testing.T) {
	tests := map[string]string{"v1.35.4": "v0.35.4", "v1.36.0-rc.1": "v0.36.0-rc.1", "v2.0.0": "v2.0.0"}
	for in, want := range tests {
		assert.Equal(t, want, stagingVersion(in), in)
	}
}

func TestScratchGoMod(t *testing.T) {
	tests := []struct {
		name     string
		require  string
		replaces []string
		want     string
	}{
		{"require only", "go.etcd.io/etcd/server/v3 v3.6.16", nil,
			"module fsmserve.local/build/etcd\n\ngo 1.26\n\nrequire go.etcd.io/etcd/server/v3 v3.6.16\n"},
		{"empty for go get -tool", "", nil, "module fsmserve.local/build/etcd\n\ngo 1.26\n"},
		{"with replaces", "k8s.io/kubernetes v1.35.4", []string{"k8s.io/api => k8s.io/api v0.35.4"},
			"module fsmserve.local/build/etcd\n\ngo 1.26\n\nrequire k8s.io/kubernetes v1.35.4\n\nreplace (\n\tk8s.io/api => k8s.io/api v0.35.4\n)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, scratchGoMod("etcd", tt.require, tt.replaces))
		})
	}
}

func TestToolsGo(t *testing.T) {
	assert.Equal(t, "//go:build tools\n\npackage tools\n\nimport (\n"+
		"\t_ \"k8s.io/kubernetes/cmd/kube-apiserver\"\n"+
		"\t_ \"k8s.io/kubernetes/cmd/kube-controller-manager\"\n"+
		"\t_ \"k8s.io/kubernetes/cmd/kube-scheduler\"\n)\n",
		toolsGo(kubernetesComponent.tools))
}
