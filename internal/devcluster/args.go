package devcluster

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
)

// layout is where a cluster keeps its state inside the work dir.
type layout struct {
	workDir           string
	logDir            string
	certDir           string
	etcdData          string
	kwokDir           string
	caCert            string
	caKey             string
	serviceAccountKey string
	tokenFile         string
	adminKubeconfig   string // what the control plane components use
}

func newLayout(workDir, logDir string) layout {
	certDir := filepath.Join(workDir, "pki")
	return layout{
		workDir:           workDir,
		logDir:            logDir,
		certDir:           certDir,
		etcdData:          filepath.Join(workDir, "etcd"),
		kwokDir:           filepath.Join(workDir, "kwok"),
		caCert:            filepath.Join(certDir, "ca.crt"),
		caKey:             filepath.Join(certDir, "ca.key"),
		serviceAccountKey: filepath.Join(certDir, "service-account.key"),
		tokenFile:         filepath.Join(certDir, "tokens.csv"),
		adminKubeconfig:   filepath.Join(workDir, "admin.kubeconfig"),
	}
}

// ports are the loopback ports a cluster listens on.
type ports struct {
	etcdClient int
	etcdPeer   int
	apiserver  int
}

const (
	serviceClusterIPRange = "10.0.0.0/16"
	serviceAccountIssuer  = "https://kubernetes.default.svc.cluster.local"
	// podCIDR is where kwok allocates pod IPs; apart from the service range.
	podCIDR = "10.244.0.1/16"
	// fakeNodeSelector is what kwok manages: our nodes, and no real one.
	fakeNodeAnnotation = "kwok.x-k8s.io/node"
	fakeNodeValue      = "fake"
)

func loopbackURL(scheme string, port int) string {
	return scheme + "://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}

func etcdArgs(l layout, p ports) []string {
	client := loopbackURL("http", p.etcdClient)
	peer := loopbackURL("http", p.etcdPeer)
	return []string{
		"--name=fsmserve",
		"--data-dir=" + l.etcdData,
		"--listen-client-urls=" + client,
		"--advertise-client-urls=" + client,
		"--listen-peer-urls=" + peer,
		"--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=fsmserve=" + peer,
		// A dev cluster's data is thrown away on the next start: no fsync.
		"--unsafe-no-fsync=true",
		"--log-level=warn",
	}
}

func apiserverArgs(l layout, p ports) []string {
	return []string{
		"--etcd-servers=" + loopbackURL("http", p.etcdClient),
		"--secure-port=" + strconv.Itoa(p.apiserver),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--cert-dir=" + l.certDir,
		"--client-ca-file=" + l.caCert,
		"--token-auth-file=" + l.tokenFile,
		"--authorization-mode=Node,RBAC",
		"--service-account-key-file=" + l.serviceAccountKey,
		"--service-account-signing-key-file=" + l.serviceAccountKey,
		"--service-account-issuer=" + serviceAccountIssuer,
		"--service-cluster-ip-range=" + serviceClusterIPRange,
		"--allow-privileged=true",
		// The default reconciler would publish 127.0.0.1 as the endpoint of
		// the kubernetes service, which validation rejects every 10 s.
		"--endpoint-reconciler-type=none",
	}
}

// clientKubeconfigArgs are the flags kube-controller-manager and
// kube-scheduler both need: one admin kubeconfig for talking to the
// apiserver and for delegated authn/authz, and no serving port of their own.
func clientKubeconfigArgs(l layout) []string {
	return []string{
		"--kubeconfig=" + l.adminKubeconfig,
		"--authentication-kubeconfig=" + l.adminKubeconfig,
		"--authorization-kubeconfig=" + l.adminKubeconfig,
		"--leader-elect=false",
		"--secure-port=0",
	}
}

func controllerManagerArgs(l layout) []string {
	return append(clientKubeconfigArgs(l),
		"--service-account-private-key-file="+l.serviceAccountKey,
		"--root-ca-file="+l.caCert,
		"--cluster-signing-cert-file="+l.caCert,
		"--cluster-signing-key-file="+l.caKey,
		"--use-service-account-credentials=false",
		"--controllers=*",
		"--cluster-name=fsmserve",
		// Fake nodes have no kubelet; on a busy two-core machine kwok's
		// heartbeats can be late, and the default 50 s grace would mark
		// every node NotReady and every pod unready.
		"--node-monitor-grace-period=5m",
	)
}

func schedulerArgs(l layout) []string {
	return clientKubeconfigArgs(l)
}

func kwokArgs(l layout) []string {
	return []string{
		"--kubeconfig=" + l.adminKubeconfig,
		"--config=" + stagesFile(l),
		"--manage-all-nodes=false",
		fmt.Sprintf("--manage-nodes-with-annotation-selector=%s=%s", fakeNodeAnnotation, fakeNodeValue),
		"--cidr=" + podCIDR,
		// Heartbeat through Leases, as kubelets do: cheaper than rewriting
		// the Node status, so heartbeats stay on time under load.
		"--node-lease-duration-seconds=40",
	}
}

// kwokEnv points kwok's work dir into ours, so a ~/.kwok/kwok.yaml of the
// user's never changes how the dev cluster behaves.
func kwokEnv(l layout) []string {
	return []string{"KWOK_WORKDIR=" + l.kwokDir}
}

// freePorts asks the kernel for n distinct free loopback ports.
func freePorts(n int) ([]int, error) {
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	out := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		listeners = append(listeners, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}
