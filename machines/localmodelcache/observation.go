package localmodelcache

// Observation is everything the controller saw in one reconcile that the
// machine decides on. It is a plain value: building it is the controller's job.
type Observation struct {
	// Deleting is true once the cache has a deletion timestamp.
	Deleting bool
	// SpecChanged is true when the generation differs from the one last acted on.
	SpecChanged bool
	// Problem is what stops the cache from being distributed, if anything.
	Problem Problem
	// Nodes is the model's state on the nodes of the cache's node groups.
	Nodes Nodes
	// Users are the InferenceServices that use the cache, as namespace/name.
	Users []string
	// JobNamespace is where the download Jobs run, for messages.
	JobNamespace string
}

// ProblemKind sorts what stops the cache by who fixes it.
type ProblemKind string

const (
	NoProblem ProblemKind = ""
	// NodeGroupProblem: a node group the cache names does not exist.
	NodeGroupProblem ProblemKind = "NodeGroup"
	// ConfigProblem: the localModel key of inferenceservice-config is
	// invalid, or its job namespace does not exist.
	ConfigProblem ProblemKind = "Config"
)

// Problem is a reason the cache cannot be distributed, with a message that
// names what is missing or wrong and what to do about it.
type Problem struct {
	Kind    ProblemKind
	Reason  string
	Message string
}

// Nodes is the state of the model on the nodes of the cache's node groups.
// Every Ready member node is in exactly one of Downloaded, Downloading,
// Pending and Failed.
type Nodes struct {
	// Groups are the cache's node groups, for messages.
	Groups []string
	// Downloaded, Downloading and Pending list Ready member nodes by the
	// state their agent reports for the model.
	Downloaded  []string
	Downloading []string
	Pending     []string
	// Failed lists Ready member nodes whose download failed, with the agent's
	// reason when it gave one.
	Failed []NodeFailure
	// NotReady lists member nodes that are not Ready.
	NotReady []string
	// Outdated lists nodes whose LocalModelNode must change: a Ready member
	// without the cache's current entry, or a node that left the node groups
	// and still holds it.
	Outdated []string
}

// NodeFailure is a node whose download failed, with what its agent said.
type NodeFailure struct {
	Node    string
	Reason  string
	Message string
}

// Ready is the number of Ready member nodes: the copies the cache wants.
func (n Nodes) Ready() int {
	return len(n.Downloaded) + len(n.Downloading) + len(n.Pending) + len(n.Failed)
}

// AllDownloaded reports whether every Ready member node has the model.
func (n Nodes) AllDownloaded() bool { return n.Ready() > 0 && len(n.Downloaded) == n.Ready() }

// AllFailed reports whether the download failed on every Ready member node.
func (n Nodes) AllFailed() bool { return n.Ready() > 0 && len(n.Failed) == n.Ready() }

// FailedNodes returns the names of the nodes whose download failed.
func (n Nodes) FailedNodes() []string {
	out := make([]string, len(n.Failed))
	for i, f := range n.Failed {
		out[i] = f.Node
	}
	return out
}
