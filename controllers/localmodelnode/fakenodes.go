package localmodelnode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// FakeNodesOptions configure the agents of fake nodes.
type FakeNodesOptions struct {
	// Nodes are the fake nodes' names; each gets an agent.
	Nodes []string
	// Dir holds one models root per node (Dir/<node>); a temporary directory,
	// removed on Stop, when empty.
	Dir             string
	SystemNamespace string
	// JobNamespace defaults to localModel.jobNamespace; it is created when missing.
	JobNamespace   string
	Clock          clock.WithDelayedExecution
	TracerProvider trace.TracerProvider
	Retry          RetryPolicy
}

// FakeNodes runs one node agent per fake node in this process, for fsmserve
// dev and the scenario host, where pods run nowhere: each agent has its own
// manager (its own caches and memory, so a restart forgets everything but
// the API server), a models root of its own, and SimulateDownloads on.
// A fake node is steered through a ConfigMap (see fakecontrol.go) or the
// methods below.
type FakeNodes struct {
	cfg    *rest.Config
	o      FakeNodesOptions
	ownDir bool

	mu      sync.Mutex
	agents  map[string]*runningAgent
	control *runningAgent
}

type runningAgent struct {
	agent  *Agent
	cancel context.CancelFunc
	done   chan error
}

// StartFakeNodes starts an agent for every fake node; Stop them when done.
func StartFakeNodes(ctx context.Context, cfg *rest.Config, o FakeNodesOptions) (*FakeNodes, error) {
	f := &FakeNodes{cfg: cfg, o: o, agents: map[string]*runningAgent{}}
	if err := f.prepare(ctx); err != nil {
		return nil, err
	}
	for _, node := range o.Nodes {
		if err := f.start(ctx, node); err != nil {
			f.Stop()
			return nil, err
		}
	}
	if err := f.startControl(ctx); err != nil {
		f.Stop()
		return nil, err
	}
	return f, nil
}

// prepare settles the directory and the job namespace, which a real
// installation creates with the agents' DaemonSet.
func (f *FakeNodes) prepare(ctx context.Context) error {
	if f.o.Dir == "" {
		dir, err := os.MkdirTemp("", "fsmserve-fake-nodes-")
		if err != nil {
			return err
		}
		f.o.Dir, f.ownDir = dir, true
	}
	if f.o.JobNamespace == "" {
		ns, err := JobNamespaceFromConfig(ctx, f.cfg, f.o.SystemNamespace)
		if err != nil {
			return err
		}
		f.o.JobNamespace = ns
	}
	c, err := client.New(f.cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: f.o.JobNamespace}}
	if err := c.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating the job namespace %s: %w", ns.Name, err)
	}
	return nil
}

// ModelsRoot is the fake node's models root on this machine.
func (f *FakeNodes) ModelsRoot(node string) string { return filepath.Join(f.o.Dir, node) }

// Nodes lists the fake nodes.
func (f *FakeNodes) Nodes() []string { return append([]string(nil), f.o.Nodes...) }

func (f *FakeNodes) start(ctx context.Context, node string) error {
	root := f.ModelsRoot(node)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	mgr, err := NewManager(f.cfg, ManagerOptions{NodeName: node, JobNamespace: f.o.JobNamespace, SystemNamespace: f.o.SystemNamespace})
	if err != nil {
		return err
	}
	a, err := Setup(mgr, Options{NodeName: node, ModelsRoot: root, JobNamespace: f.o.JobNamespace, SystemNamespace: f.o.SystemNamespace,
		Clock: f.o.Clock, TracerProvider: f.o.TracerProvider, Retry: f.o.Retry, SimulateDownloads: true})
	if err != nil {
		return err
	}
	r, err := run(ctx, mgr.Start, mgr.GetCache().WaitForCacheSync)
	if err != nil {
		return fmt.Errorf("fake node %s: %w", node, err)
	}
	r.agent = a
	f.mu.Lock()
	f.agents[node] = r
	f.mu.Unlock()
	return nil
}

// run starts a manager on its own context (it outlives ctx, until stopped)
// and waits for its caches.
func run(ctx context.Context, start func(context.Context) error, synced func(context.Context) bool) (*runningAgent, error) {
	mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r := &runningAgent{cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- start(mctx) }()
	syncCtx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	if !synced(syncCtx) {
		r.stop()
		return nil, fmt.Errorf("caches did not sync within 60s")
	}
	return r, nil
}

func (r *runningAgent) stop() {
	r.cancel()
	<-r.done
}

// Restart stops the node's agent and starts a fresh one: new caches, no
// memory, only what the API server and the disk hold.
func (f *FakeNodes) Restart(ctx context.Context, node string) error {
	f.mu.Lock()
	old, ok := f.agents[node]
	delete(f.agents, node)
	f.mu.Unlock()
	if !ok {
		return fmt.Errorf("no fake node %q (fake nodes: %v)", node, f.o.Nodes)
	}
	old.stop()
	return f.start(ctx, node)
}

// DeleteModelFolder deletes the folder of a model URI on a fake node, as
// someone with a shell on the node would, and lets the agent look at once
// (a real agent notices at its next periodic check).
func (f *FakeNodes) DeleteModelFolder(node, sourceModelUri string) error {
	f.mu.Lock()
	r, ok := f.agents[node]
	f.mu.Unlock()
	if !ok {
		return fmt.Errorf("no fake node %q (fake nodes: %v)", node, f.o.Nodes)
	}
	if err := localmodel.RemoveModelFolder(localmodel.ModelFolder(f.ModelsRoot(node), v1alpha1.GetStorageKey(sourceModelUri))); err != nil {
		return err
	}
	r.agent.EnqueueAll()
	return nil
}

// InspectModelFolder says whether a model URI's folder is on a fake node:
// "present", "absent", "empty", or what else is wrong with it.
func (f *FakeNodes) InspectModelFolder(node, sourceModelUri string) (string, error) {
	check, err := localmodel.CheckModelFolder(localmodel.ModelFolder(f.ModelsRoot(node), v1alpha1.GetStorageKey(sourceModelUri)))
	switch {
	case err != nil:
		return "", err
	case check.Verified:
		return "present", nil
	case check.Problem == "does not exist":
		return "absent", nil
	case check.Problem == "is empty":
		return "empty", nil
	}
	return check.Problem, nil
}

// Stop stops every agent and the control loop, and removes a temporary directory.
func (f *FakeNodes) Stop() {
	f.mu.Lock()
	agents := f.agents
	f.agents = map[string]*runningAgent{}
	control := f.control
	f.mu.Unlock()
	if control != nil {
		control.stop()
	}
	for _, r := range agents {
		r.stop()
	}
	if f.ownDir {
		_ = os.RemoveAll(f.o.Dir)
	}
}
