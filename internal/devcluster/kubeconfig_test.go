package devcluster

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/clientcmd"
)

func TestRenderKubeconfig(t *testing.T) {
	ca := []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
	data, err := renderKubeconfig("https://127.0.0.1:6443", ca, "s3cret")
	require.NoError(t, err)

	cfg, err := clientcmd.Load(data)
	require.NoError(t, err)
	assert.Equal(t, KubeconfigContext, cfg.CurrentContext)
	ctx := cfg.Contexts[KubeconfigContext]
	require.NotNil(t, ctx)
	assert.Equal(t, "https://127.0.0.1:6443", cfg.Clusters[ctx.Cluster].Server)
	assert.Equal(t, ca, cfg.Clusters[ctx.Cluster].CertificateAuthorityData)
	assert.Equal(t, "s3cret", cfg.AuthInfos[ctx.AuthInfo].Token)

	rc, err := clientcmd.NewDefaultClientConfig(*cfg, nil).ClientConfig()
	require.NoError(t, err)
	want := restConfig("https://127.0.0.1:6443", ca, "s3cret")
	assert.Equal(t, want.Host, rc.Host)
	assert.Equal(t, want.BearerToken, rc.BearerToken)
	assert.Equal(t, want.CAData, rc.CAData)
}

func TestWriteKubeconfigCreatesDirectoryPrivately(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "kubeconfig")
	require.NoError(t, writeKubeconfig(path, []byte("apiVersion: v1\n")))
	assert.FileExists(t, path)
	assert.NoFileExists(t, path+".tmp")
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, "-rw-------", info.Mode().String(), "the kubeconfig holds an admin token")
}
