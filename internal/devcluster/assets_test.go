package devcluster

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCacheDirFrom(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		wantErr bool
	}{
		{"FSMSERVE_CACHE wins", map[string]string{"FSMSERVE_CACHE": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/c", false},
		{"XDG_CACHE_HOME next", map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/fsmserve", false},
		{"HOME last", map[string]string{"HOME": "/h"}, "/h/.cache/fsmserve", false},
		{"empty values are unset", map[string]string{"FSMSERVE_CACHE": "", "XDG_CACHE_HOME": "", "HOME": "/h"}, "/h/.cache/fsmserve", false},
		{"nothing set", map[string]string{}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cacheDirFrom(func(k string) string { return tt.env[k] })
			if tt.wantErr {
				require.ErrorContains(t, err, "FSMSERVE_CACHE")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCacheDirFromMakesRelativePathsAbsolute(t *testing.T) {
	got, err := cacheDirFrom(func(k string) string { return map[string]string{"FSMSERVE_CACHE": "rel"}[k] })
	require.NoError(t, err)
	wd, _ := os.Getwd()
	assert.Equal(t, filepath.Join(wd, "rel"), got)
}

func TestBinariesLayout(t *testing.T) {
	b := binariesIn("/cache")
	assert.Equal(t, "/cache/bin/kubernetes-v1.35.4/kube-apiserver", b.KubeAPIServer)
	assert.Equal(t, "/cache/bin/kubernetes-v1.35.4/kube-controller-manager", b.KubeControllerManager)
	assert.Equal(t, "/cache/bin/kubernetes-v1.35.4/kube-scheduler", b.KubeScheduler)
	assert.Equal(t, "/cache/bin/etcd-v3.6.16/etcd", b.Etcd)
	assert.Equal(t, "/cache/bin/kwok-v0.7.0/kwok", b.Kwok)
	assert.Equal(t, "/cache/bin/jaeger-v1.76.0/jaeger", b.Jaeger)
}

func TestBinariesMissing(t *testing.T) {
	cache := t.TempDir()
	b := binariesIn(cache)
	for _, p := range []string{b.Etcd, b.KubeAPIServer, b.KubeControllerManager, b.KubeScheduler} {
		writeExecutable(t, p)
	}
	err := b.Missing(false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), b.Kwok)
	assert.Contains(t, err.Error(), "go run ./hack/ensure-assets")
	assert.NotContains(t, err.Error(), b.Etcd)

	writeExecutable(t, b.Kwok)
	assert.NoError(t, b.Missing(false))
	assert.ErrorContains(t, b.Missing(true), b.Jaeger)

	// A file that is not executable does not count.
	require.NoError(t, os.MkdirAll(filepath.Dir(b.Jaeger), 0o755))
	require.NoError(t, os.WriteFile(b.Jaeger, []byte("x"), 0o644))
	assert.ErrorContains(t, b.Missing(true), b.Jaeger)
}

func TestSelectTools(t *testing.T) {
	tests := []struct {
		name string
		c    component
		only []string
		want []string
	}{
		{"all by default", kubernetesComponent, nil, []string{BinKubeAPIServer, BinKubeControllerManager, BinKubeScheduler}},
		{"subset", kubernetesComponent, []string{BinKubeAPIServer, BinEtcd}, []string{BinKubeAPIServer}},
		{"other component", kwokComponent, []string{BinKubeAPIServer, BinEtcd}, nil},
		{"single", etcdComponent, []string{BinEtcd}, []string{BinEtcd}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, selectTools(tt.c, tt.only))
		})
	}
}

func TestKubernetesLDFlags(t *testing.T) {
	assert.Equal(t, "-s -w -X k8s.io/component-base/version.gitVersion=v1.35.4"+
		" -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=35",
		kubernetesLDFlags("v1.35.4"))
}

func TestEnvtestAssetsDirHonoursKubebuilderAssets(t *testing.T) {
	t.Setenv("KUBEBUILDER_ASSETS", "/somewhere/else")
	// An unusable cache proves nothing is built or looked up.
	t.Setenv("FSMSERVE_CACHE", "/dev/null/cache")
	dir, err := EnvtestAssetsDir(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, "/somewhere/else", dir)
}

func TestEnvtestAssetsDirLinksCachedBinaries(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("KUBEBUILDER_ASSETS", "")
	t.Setenv("FSMSERVE_CACHE", cache)
	b := binariesIn(cache)
	writeExecutable(t, b.KubeAPIServer)
	writeExecutable(t, b.Etcd)

	for range 2 { // the second call finds the links in place
		dir, err := EnvtestAssetsDir(t.Context(), nil)
		require.NoError(t, err)
		for name, target := range map[string]string{"kube-apiserver": b.KubeAPIServer, "etcd": b.Etcd} {
			got, err := os.Readlink(filepath.Join(dir, name))
			require.NoError(t, err)
			assert.Equal(t, target, got)
		}
	}
}

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755))
}

func TestEnsureBinariesRejectsUnknownNames(t *testing.T) {
	t.Setenv("FSMSERVE_CACHE", t.TempDir())
	_, err := EnsureBinaries(t.Context(), EnsureOptions{Only: []string{"etcd", "kubelet"}})
	assert.ErrorContains(t, err, `unknown binary "kubelet": choose from etcd, kube-apiserver`)
}
