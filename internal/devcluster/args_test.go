package devcluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestComponentArgs(t *testing.T) {
	l := newLayout("/w", "/w/logs")
	p := ports{etcdClient: 2379, etcdPeer: 2380, apiserver: 6443}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"etcd", etcdArgs(l, p), []string{
			"--data-dir=/w/etcd",
			"--listen-client-urls=http://127.0.0.1:2379",
			"--advertise-client-urls=http://127.0.0.1:2379",
			"--listen-peer-urls=http://127.0.0.1:2380",
			"--initial-cluster=fsmserve=http://127.0.0.1:2380",
		}},
		{"kube-apiserver", apiserverArgs(l, p), []string{
			"--etcd-servers=http://127.0.0.1:2379",
			"--secure-port=6443",
			"--bind-address=127.0.0.1",
			"--advertise-address=127.0.0.1",
			"--cert-dir=/w/pki",
			"--token-auth-file=/w/pki/tokens.csv",
			"--authorization-mode=Node,RBAC",
			"--service-account-key-file=/w/pki/service-account.key",
			"--service-account-signing-key-file=/w/pki/service-account.key",
			"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
			"--service-cluster-ip-range=10.0.0.0/16",
		}},
		{"kube-controller-manager", controllerManagerArgs(l), []string{
			"--kubeconfig=/w/admin.kubeconfig",
			"--authentication-kubeconfig=/w/admin.kubeconfig",
			"--authorization-kubeconfig=/w/admin.kubeconfig",
			"--service-account-private-key-file=/w/pki/service-account.key",
			"--root-ca-file=/w/pki/ca.crt",
			"--use-service-account-credentials=false",
			"--controllers=*",
			"--leader-elect=false",
			"--secure-port=0",
		}},
		{"kube-scheduler", schedulerArgs(l), []string{
			"--kubeconfig=/w/admin.kubeconfig",
			"--authentication-kubeconfig=/w/admin.kubeconfig",
			"--authorization-kubeconfig=/w/admin.kubeconfig",
			"--leader-elect=false",
			"--secure-port=0",
		}},
		{"kwok", kwokArgs(l), []string{
			"--kubeconfig=/w/admin.kubeconfig",
			"--manage-all-nodes=false",
			"--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, w := range tt.want {
				assert.Contains(t, tt.args, w)
			}
		})
	}
	assert.Equal(t, []string{"KWOK_WORKDIR=/w/kwok"}, kwokEnv(l))
}

func TestFreePortsAreDistinct(t *testing.T) {
	got, err := freePorts(5)
	require.NoError(t, err)
	seen := map[int]bool{}
	for _, p := range got {
		assert.Positive(t, p)
		assert.False(t, seen[p], "port %d returned twice", p)
		seen[p] = true
	}
}

func TestNewValidatesOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"no work dir", Options{}, "WorkDir"},
		{"more GPU nodes than nodes", Options{WorkDir: "/w", Nodes: 2, GPUNodes: 3}, "GPUNodes=3"},
		{"negative nodes", Options{WorkDir: "/w", Nodes: -1}, "Nodes=-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestNewDefaults(t *testing.T) {
	c, err := New(Options{WorkDir: "/w", Binaries: binariesIn("/cache")})
	require.NoError(t, err)
	assert.Equal(t, DefaultNodes, c.opts.Nodes)
	assert.Equal(t, "/w/kubeconfig", c.KubeconfigPath())
	assert.Equal(t, "/w/logs", c.LogDir())
	assert.Equal(t, []string{"fsmserve-node-0", "fsmserve-node-1", "fsmserve-node-2"}, c.NodeNames())
	assert.Nil(t, c.RESTConfig(), "no config before Start")
}
