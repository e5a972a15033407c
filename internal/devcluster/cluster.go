package devcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Options configure a Cluster. Only WorkDir is required.
type Options struct {
	// WorkDir holds the cluster's state (etcd data, certificates, logs). Its
	// state is reset on every Start; `fsmserve dev` passes <repo>/.fsmserve.
	WorkDir string
	// KubeconfigPath is where the admin kubeconfig is written; default
	// WorkDir/kubeconfig.
	KubeconfigPath string
	// LogDir receives one <process>.log per process; default WorkDir/logs.
	LogDir string
	// Nodes is the number of fake nodes; default 3.
	Nodes int
	// GPUNodes is how many of the nodes (the first ones) advertise 8
	// nvidia.com/gpu; 0 means none.
	GPUNodes int
	// NodeSize is every node's capacity; zero means DefaultNodeSize.
	NodeSize NodeSize
	// APIServerPort is the loopback port of kube-apiserver; 0 picks a free one.
	APIServerPort int
	// Binaries overrides the binaries; zero means the ones in the cache.
	Binaries Binaries
	// Progress receives a few lines about startup; nil discards them.
	Progress io.Writer
}

// DefaultNodes is the number of fake nodes when Options.Nodes is 0.
const DefaultNodes = 3

// Cluster is a local control plane with kwok-managed fake nodes, run as
// child processes of this one.
type Cluster struct {
	opts   Options
	layout layout
	ports  ports
	pki    *pki
	cfg    *rest.Config

	mu       sync.Mutex
	procs    []*process
	pids     []int
	workLock *os.File
}

// New validates opts and returns a cluster that Start will run.
func New(opts Options) (*Cluster, error) {
	if opts.WorkDir == "" {
		return nil, errors.New("devcluster: Options.WorkDir is empty; pass a directory for the cluster state (fsmserve dev uses .fsmserve)")
	}
	if opts.Nodes == 0 {
		opts.Nodes = DefaultNodes
	}
	if opts.NodeSize.CPU.IsZero() {
		opts.NodeSize = DefaultNodeSize
	}
	if opts.Nodes < 0 || opts.GPUNodes < 0 || opts.GPUNodes > opts.Nodes {
		return nil, fmt.Errorf("devcluster: invalid node counts Nodes=%d GPUNodes=%d: need Nodes >= 1 and 0 <= GPUNodes <= Nodes", opts.Nodes, opts.GPUNodes)
	}
	workDir, err := filepath.Abs(opts.WorkDir)
	if err != nil {
		return nil, fmt.Errorf("devcluster: resolving work dir %s: %w", opts.WorkDir, err)
	}
	opts.WorkDir = workDir
	if opts.LogDir == "" {
		opts.LogDir = filepath.Join(workDir, "logs")
	}
	if opts.KubeconfigPath == "" {
		opts.KubeconfigPath = filepath.Join(workDir, "kubeconfig")
	}
	if opts.LogDir, err = filepath.Abs(opts.LogDir); err != nil {
		return nil, err
	}
	if opts.KubeconfigPath, err = filepath.Abs(opts.KubeconfigPath); err != nil {
		return nil, err
	}
	if opts.Binaries == (Binaries{}) {
		if opts.Binaries, err = CachedBinaries(); err != nil {
			return nil, err
		}
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	return &Cluster{opts: opts, layout: newLayout(workDir, opts.LogDir)}, nil
}

// RESTConfig returns an admin config for the running cluster (nil before Start).
func (c *Cluster) RESTConfig() *rest.Config {
	if c.cfg == nil {
		return nil
	}
	return rest.CopyConfig(c.cfg)
}

// KubeconfigPath returns where the admin kubeconfig is written.
func (c *Cluster) KubeconfigPath() string { return c.opts.KubeconfigPath }

// LogDir returns the directory of the process logs.
func (c *Cluster) LogDir() string { return c.opts.LogDir }

// NodeNames returns the names of the fake nodes.
func (c *Cluster) NodeNames() []string {
	names := make([]string, c.opts.Nodes)
	for i := range names {
		names[i] = NodeName(i)
	}
	return names
}

// PIDs returns the process ids of every process the cluster started.
func (c *Cluster) PIDs() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.pids...)
}

// Start runs etcd, kube-apiserver, kube-controller-manager, kube-scheduler
// and kwok, registers the fake nodes and returns once they are Ready and the
// default service account exists. ctx bounds the startup only; the cluster
// runs until Stop. On error everything started so far is stopped.
func (c *Cluster) Start(ctx context.Context) (err error) {
	started := time.Now()
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	if err := c.opts.Binaries.Missing(false); err != nil {
		return err
	}
	if err := c.prepare(); err != nil {
		return err
	}
	if err := c.startEtcd(ctx); err != nil {
		return err
	}
	if err := c.startAPIServer(ctx); err != nil {
		return err
	}
	if err := c.startControllers(); err != nil {
		return err
	}
	if err := c.startNodes(ctx); err != nil {
		return err
	}
	fmt.Fprintf(c.opts.Progress, "fsmserve: cluster up in %s (%s, logs in %s)\n",
		roundDuration(time.Since(started)), c.cfg.Host, c.opts.LogDir)
	return nil
}

// prepare locks the work dir, resets its state, and writes certificates,
// keys and kubeconfigs for fresh ports.
func (c *Cluster) prepare() error {
	if err := c.lockWorkDir(); err != nil {
		return err
	}
	l := c.layout
	for _, dir := range []string{l.etcdData, l.certDir, l.kwokDir} {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("resetting %s: %w", dir, err)
		}
	}
	for _, dir := range []string{l.certDir, l.kwokDir, l.logDir} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", dir, err)
		}
	}
	if err := writeStages(l); err != nil {
		return err
	}
	free, err := freePorts(3)
	if err != nil {
		return err
	}
	c.ports = ports{etcdClient: free[0], etcdPeer: free[1], apiserver: free[2]}
	if c.opts.APIServerPort != 0 {
		c.ports.apiserver = c.opts.APIServerPort
	}
	if c.pki, err = newPKI(); err != nil {
		return err
	}
	if err := c.pki.write(l); err != nil {
		return err
	}
	server := loopbackURL("https", c.ports.apiserver)
	c.cfg = restConfig(server, c.pki.caCert, c.pki.adminToken)
	kubeconfig, err := renderKubeconfig(server, c.pki.caCert, c.pki.adminToken)
	if err != nil {
		return err
	}
	if err := writeKubeconfig(l.adminKubeconfig, kubeconfig); err != nil {
		return err
	}
	return writeKubeconfig(c.opts.KubeconfigPath, kubeconfig)
}

// lockWorkDir makes sure two clusters never share a work dir.
func (c *Cluster) lockWorkDir() error {
	if err := os.MkdirAll(c.opts.WorkDir, 0o755); err != nil {
		return fmt.Errorf("creating work dir %s: %w", c.opts.WorkDir, err)
	}
	path := filepath.Join(c.opts.WorkDir, "cluster.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		owner, _ := os.ReadFile(path)
		_ = f.Close()
		return fmt.Errorf("work dir %s is in use by another local cluster (pid %s): stop it or use another work dir",
			c.opts.WorkDir, string(owner))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())), 0)
	c.workLock = f
	return nil
}

func (c *Cluster) launch(name, bin string, args, env []string) (*process, error) {
	p, err := startProcess(name, bin, args, env, c.opts.WorkDir, c.opts.LogDir)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.pids = append(c.pids, p.pid())
	c.mu.Unlock()
	return p, nil
}

func (c *Cluster) clientset() (*kubernetes.Clientset, error) {
	cs, err := kubernetes.NewForConfig(c.cfg)
	if err != nil {
		return nil, fmt.Errorf("creating Kubernetes client: %w", err)
	}
	return cs, nil
}

// Stop stops every process the cluster started: clients first, then
// kube-apiserver, then etcd, each with SIGTERM and SIGKILL after a grace
// period, and waits for them to exit. It is safe to call more than once.
func (c *Cluster) Stop() {
	c.mu.Lock()
	procs := c.procs
	c.procs = nil
	lock := c.workLock
	c.workLock = nil
	c.mu.Unlock()

	var clients, apiserver, etcd []*process
	for _, p := range procs {
		switch p.name {
		case BinEtcd:
			etcd = append(etcd, p)
		case BinKubeAPIServer:
			apiserver = append(apiserver, p)
		default:
			clients = append(clients, p)
		}
	}
	for _, stage := range [][]*process{clients, apiserver, etcd} {
		stopAll(stage)
	}
	if lock != nil {
		_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
		_ = lock.Close()
	}
}

func stopAll(procs []*process) {
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() { p.stop(stopGrace) })
	}
	wg.Wait()
}
