package localmodelcache

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var (
	missingGroup = Problem{Kind: NodeGroupProblem, Reason: ReasonNodeGroupNotFound, Message: "node group gpu-b does not exist"}
	badConfig    = Problem{Kind: ConfigProblem, Reason: "InvalidLocalModelConfig", Message: "bad"}
	twoNodes     = Observation{Nodes: Nodes{Groups: []string{"gpu"}, Pending: []string{"a", "b"}}, JobNamespace: "jobs"}
)

func with(mut func(*Observation)) Observation {
	o := twoNodes
	o.Nodes.Pending = append([]string(nil), twoNodes.Nodes.Pending...)
	mut(&o)
	return o
}

func nodes(downloaded, downloading, pending, failed int) func(*Observation) {
	return func(o *Observation) {
		n := Nodes{Groups: []string{"gpu"}}
		for i := 0; i < downloaded; i++ {
			n.Downloaded = append(n.Downloaded, "ok")
		}
		for i := 0; i < downloading; i++ {
			n.Downloading = append(n.Downloading, "dl")
		}
		for i := 0; i < pending; i++ {
			n.Pending = append(n.Pending, "p")
		}
		for i := 0; i < failed; i++ {
			n.Failed = append(n.Failed, NodeFailure{Node: "f"})
		}
		o.Nodes = n
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		why   string
		state State
		obs   Observation
		want  Trigger
	}{
		{"a new cache is admitted", Pending, twoNodes, Admitted},
		{"an unknown state re-derives", Recovering, twoNodes, Admitted},
		{"deletion without users", Ready, with(func(o *Observation) { o.Deleting = true }), DeletionRequested},
		{"deletion beats a problem", WaitingForNodeGroup, with(func(o *Observation) { o.Deleting, o.Problem = true, missingGroup }), DeletionRequested},
		{"deletion waits while used", WaitingForUsers, with(func(o *Observation) { o.Deleting, o.Users = true, []string{"ns/iris"} }), ""},
		{"the last user going lets deletion go on", WaitingForUsers, with(func(o *Observation) { o.Deleting = true }), UsersGone},
		{"nothing moves a deleting cache", Deleting, with(func(o *Observation) { o.Deleting = true }), ""},
		{"a missing node group blocks", ResolvingNodeGroups, with(func(o *Observation) { o.Problem = missingGroup }), NodeGroupMissing},
		{"a bad config blocks", ResolvingNodeGroups, with(func(o *Observation) { o.Problem = badConfig }), ConfigRejected},
		{"resolved node groups distribute", ResolvingNodeGroups, twoNodes, NodeGroupsResolved},
		{"a node group created unblocks", WaitingForNodeGroup, twoNodes, NodeGroupsResolved},
		{"an unchanged problem keeps the state", WaitingForNodeGroup, with(func(o *Observation) { o.Problem = missingGroup }), ""},
		{"a node group deleted while ready blocks", Ready, with(func(o *Observation) { o.Problem = missingGroup }), NodeGroupMissing},
		{"the problem beats the nodes", WaitingForNodeGroup, with(func(o *Observation) { o.Problem = badConfig }), ConfigRejected},
		{"distributing waits for entries", Distributing, with(func(o *Observation) { o.Nodes.Outdated = []string{"a"} }), ""},
		{"entries written", Distributing, twoNodes, EntriesWritten},
		{"no ready node", Distributing, with(nodes(0, 0, 0, 0)), NoReadyNodes},
		{"still no ready node", WaitingForNodes, with(nodes(0, 0, 0, 0)), ""},
		{"a node becomes ready", WaitingForNodes, twoNodes, NodesAvailable},
		{"a node joins while ready", Ready, with(func(o *Observation) { nodes(2, 0, 0, 0)(o); o.Nodes.Outdated = []string{"new"} }), NodesChanged},
		{"downloads in progress wait", Downloading, with(nodes(1, 1, 0, 0)), ""},
		{"all copies available", Downloading, with(nodes(2, 0, 0, 0)), AllCopiesAvailable},
		{"one failed of two", Downloading, with(nodes(1, 0, 0, 1)), SomeDownloadsFailed},
		{"all failed", Downloading, with(nodes(0, 0, 0, 2)), AllDownloadsFailed},
		{"a copy lost while ready", Ready, with(nodes(1, 1, 0, 0)), DownloadsInProgress},
		{"a failure while ready", Ready, with(nodes(1, 0, 0, 1)), SomeDownloadsFailed},
		{"ready stays ready", Ready, with(nodes(2, 0, 0, 0)), ""},
		{"partial failure recovers", PartiallyFailed, with(nodes(2, 0, 0, 0)), AllCopiesAvailable},
		{"partial failure retrying", PartiallyFailed, with(nodes(1, 1, 0, 0)), DownloadsInProgress},
		{"partial failure stays while a node fails", PartiallyFailed, with(nodes(1, 0, 0, 1)), ""},
		{"partial failure becomes total", PartiallyFailed, with(nodes(0, 0, 0, 2)), AllDownloadsFailed},
		{"total failure stays", Failed, with(nodes(0, 0, 0, 2)), ""},
		{"total failure retrying", Failed, with(nodes(0, 1, 1, 0)), DownloadsInProgress},
		{"total failure with one copy back", Failed, with(nodes(1, 0, 0, 1)), SomeDownloadsFailed},
		{"a spec change while ready starts an episode", Ready, with(func(o *Observation) { o.SpecChanged = true }), SpecChanged},
		{"distributing picks spec changes up itself", Distributing, with(func(o *Observation) { o.SpecChanged = true }), EntriesWritten},
		{"resolving takes the generation up first", ResolvingNodeGroups, with(func(o *Observation) { o.SpecChanged = true }), ""},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, ok := Classify(c.state, c.obs)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.want != "", ok)
		})
	}
}

func TestDeletionChoosesByUsers(t *testing.T) {
	for _, c := range []struct {
		users []string
		want  State
	}{{nil, Deleting}, {[]string{"ns/iris"}, WaitingForUsers}} {
		m := Definition.New(string(Ready), func() time.Time { return time.Unix(0, 0) })
		obs := with(func(o *Observation) { o.Deleting, o.Users = true, c.users })
		_, err := m.Run(context.Background(), obs, nil)
		assert.NoError(t, err)
		assert.Equal(t, c.want, m.State())
	}
}

// TestNewCacheReachesDownloadingInOneReconcile plays the first reconcile: the
// activity of Distributing writes the entries.
func TestNewCacheReachesDownloadingInOneReconcile(t *testing.T) {
	m := Definition.New("", func() time.Time { return time.Unix(0, 0) })
	obs := with(func(o *Observation) { o.Nodes.Outdated = []string{"a", "b"} })
	write := func(_ context.Context, s State, o Observation) Observation {
		if s == Distributing {
			o.Nodes.Outdated = nil
		}
		return o
	}
	_, err := m.Run(context.Background(), obs, write)
	assert.NoError(t, err)
	assert.Equal(t, Downloading, m.State())
	var path []Trigger
	for _, tr := range m.Journal() {
		path = append(path, Trigger(tr.Trigger))
	}
	assert.Equal(t, []Trigger{Admitted, NodeGroupsResolved, EntriesWritten}, path)
}

func TestExplainNamesTheFix(t *testing.T) {
	_, msg := Explain(Downloading, with(nodes(1, 1, 1, 0)))
	assert.Contains(t, msg, "1 of 3 copies available")
	assert.Contains(t, msg, "downloading on dl")
	_, msg = Explain(PartiallyFailed, with(func(o *Observation) {
		nodes(1, 0, 0, 0)(o)
		o.Nodes.Failed = []NodeFailure{{Node: "node-b", Reason: "DownloadFailed", Message: "403 Forbidden"}}
	}))
	assert.Contains(t, msg, "node-b (DownloadFailed 403 Forbidden)")
	assert.Contains(t, msg, "namespace jobs")
	reason, msg := Explain(WaitingForUsers, with(func(o *Observation) { o.Users = []string{"a/x", "b/y"} }))
	assert.Equal(t, ReasonInUse, reason)
	assert.Contains(t, msg, "a/x, b/y")
	reason, msg = Explain(WaitingForNodeGroup, with(func(o *Observation) { o.Problem = missingGroup }))
	assert.Equal(t, ReasonNodeGroupNotFound, reason)
	assert.Contains(t, msg, "gpu-b")
	_, msg = Explain(WaitingForNodes, with(func(o *Observation) { nodes(0, 0, 0, 0)(o); o.Nodes.NotReady = []string{"n1"} }))
	assert.Contains(t, msg, "not Ready: n1")
	_, msg = Explain(WaitingForNodes, with(nodes(0, 0, 0, 0)))
	assert.Contains(t, msg, "nodeAffinity")
	_, msg = Explain(Ready, with(func(o *Observation) {
		o.Users = []string{"1", "2", "3", "4", "5", "6", "7"}
		o.Nodes.NotReady = o.Users
	}))
	assert.Contains(t, msg, "and 2 more")
	for _, st := range Definition.States {
		if st.State == Active {
			continue
		}
		reason, _ := Explain(st.State, with(func(o *Observation) { o.Problem = missingGroup }))
		assert.NotEmpty(t, reason, st.State)
	}
}
