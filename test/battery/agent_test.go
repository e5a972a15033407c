package battery_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
	"github.com/fsmserve/fsmserve/internal/kubesim"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/nodecache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
	"github.com/fsmserve/fsmserve/test/battery"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

const agentNode = "battery-node"

// agentHost is the node agent of one fake node, its models root on this
// machine kept from one manager to the next as a node's disk is.
func agentHost(t *testing.T) battery.Host {
	h := newHost(t)
	root := t.TempDir()
	h.Start = func(ctx context.Context, cfg *rest.Config, ns string) (func(), error) {
		mgr, err := localmodelnode.NewManager(cfg, localmodelnode.ManagerOptions{NodeName: agentNode, JobNamespace: ns,
			SystemNamespace: config.DefaultSystemNamespace})
		if err != nil {
			return nil, err
		}
		if _, err := localmodelnode.Setup(mgr, localmodelnode.Options{NodeName: agentNode, ModelsRoot: root, JobNamespace: ns,
			SystemNamespace: config.DefaultSystemNamespace, Clock: clock, Retry: localmodelnode.DefaultRetryPolicy(),
			TracerProvider: tracing.NewProvider("fsmserve-battery", tracetest.NewSpanRecorder()), SimulateDownloads: true}); err != nil {
			return nil, err
		}
		return run(ctx, mgr)
	}
	return h
}

// jobsSucceed plays the Job controller: every download Job succeeds.
func jobsSucceed(ctx context.Context, c client.Client, ns string) error {
	list := &batchv1.JobList{}
	if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range list.Items {
		j := &list.Items[i]
		if j.Status.Succeeded > 0 || j.DeletionTimestamp != nil {
			continue
		}
		kubesim.JobSucceeded(j, metav1.Now())
		if err := c.Status().Update(ctx, j); err != nil {
			return err
		}
	}
	return nil
}

// downloadJobs: one Job per model and attempt.
var downloadJobs = battery.Child{
	List: func() client.ObjectList { return &batchv1.JobList{} },
	Key: func(o client.Object) string {
		return o.GetLabels()[localmodel.JobLabelModel] + " attempt " + o.GetLabels()[localmodel.JobLabelAttempt]
	},
}

// jobsSucceedInTime also lets the agent's clock run, so a retry's backoff
// passes.
func jobsSucceedInTime(ctx context.Context, c client.Client, ns string) error {
	clock.Step(5 * time.Second)
	return jobsSucceed(ctx, c, ns)
}

// models stores one model per state on the agent's node. stored gives the
// lifecycles to store for a model; watched is the key of the one the
// battery follows.
func models[S ~string](stored func(key string, s S) map[string]common.Lifecycle, watched func(key string) string) func(context.Context, client.Client, string, []S) ([]battery.Subject, error) {
	return func(ctx context.Context, c client.Client, _ string, states []S) ([]battery.Subject, error) {
		n := &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: agentNode}}
		for _, s := range states {
			name := "m-" + strings.ToLower(string(s))
			n.Spec.LocalModels = append(n.Spec.LocalModels, v1alpha1.LocalModelInfo{ModelName: name, SourceModelUri: "gs://models/" + name, NodeGroup: "gpu"})
		}
		if err := c.Create(ctx, n); err != nil {
			return nil, err
		}
		n.Status.Lifecycles = map[string]common.Lifecycle{}
		var out []battery.Subject
		for i, s := range states {
			key := n.Spec.LocalModels[i].GetStatusKey()
			for k, l := range stored(key, s) {
				n.Status.Lifecycles[k] = l
			}
			w := watched(key)
			out = append(out, battery.Subject{Name: fmt.Sprintf("%s %s", agentNode, w), Stored: string(s), Lifecycle: func(ctx context.Context, c client.Client) (*common.Lifecycle, error) {
				now := &v1alpha1.LocalModelNode{}
				if err := c.Get(ctx, client.ObjectKey{Name: agentNode}, now); err != nil {
					return nil, err
				}
				l, ok := now.Status.Lifecycles[w]
				if !ok {
					return nil, nil
				}
				return &l, nil
			}})
		}
		return out, c.Status().Update(ctx, n)
	}
}

func TestNodeCacheBattery(t *testing.T) {
	battery.Plan[nodecache.State, nodecache.Trigger, nodecache.Observation]{
		Definition: nodecache.Definition,
		Controller: "localmodelnode-agent",
		Seed: models(func(key string, s nodecache.State) map[string]common.Lifecycle {
			return map[string]common.Lifecycle{key: {Machine: nodecache.MachineName, State: string(s)}}
		}, func(key string) string { return key }),
		Goal:     nodecache.Cached,
		World:    jobsSucceed,
		Children: []battery.Child{downloadJobs},
	}.Run(t, agentHost(t))
}

func TestDownloadJobBattery(t *testing.T) {
	battery.Plan[downloadjob.State, downloadjob.Trigger, downloadjob.Observation]{
		Definition: downloadjob.Definition,
		Controller: "localmodelnode-agent",
		Seed: models(func(key string, s downloadjob.State) map[string]common.Lifecycle {
			return map[string]common.Lifecycle{
				key:               {Machine: nodecache.MachineName, State: string(nodecache.Downloading)},
				key + ":download": {Machine: downloadjob.MachineName, State: string(s)},
			}
		}, func(key string) string { return key + ":download" }),
		Goal: downloadjob.Downloaded,
		// A failed round waits for its inputs to change.
		Ends:     map[downloadjob.State]downloadjob.State{downloadjob.Failed: downloadjob.Failed},
		World:    jobsSucceedInTime,
		Children: []battery.Child{downloadJobs},
	}.Run(t, agentHost(t))
}
