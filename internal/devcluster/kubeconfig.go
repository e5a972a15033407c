package devcluster

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// KubeconfigContext is the context, cluster and user name in the kubeconfig
// the dev cluster writes.
const KubeconfigContext = "fsmserve-dev"

// renderKubeconfig returns an admin kubeconfig for server, trusting caPEM and
// authenticating with a bearer token.
func renderKubeconfig(server string, caPEM []byte, token string) ([]byte, error) {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[KubeconfigContext] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: caPEM}
	cfg.AuthInfos[KubeconfigContext] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[KubeconfigContext] = &clientcmdapi.Context{Cluster: KubeconfigContext, AuthInfo: KubeconfigContext}
	cfg.CurrentContext = KubeconfigContext
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return nil, fmt.Errorf("rendering kubeconfig: %w", err)
	}
	return data, nil
}

// writeKubeconfig writes data to path (creating its directory) via a
// temporary file, so a reader never sees half a kubeconfig.
func writeKubeconfig(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating directory for kubeconfig %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("writing kubeconfig %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing kubeconfig %s: %w", path, err)
	}
	return nil
}

// restConfig is the in-process equivalent of the admin kubeconfig.
func restConfig(server string, caPEM []byte, token string) *rest.Config {
	return &rest.Config{
		Host:            server,
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{CAData: caPEM},
		// The default 5 QPS makes installing CRDs and waiting on objects crawl.
		QPS:   100,
		Burst: 200,
	}
}
