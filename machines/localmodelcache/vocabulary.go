// Package localmodelcache is the lifecycle of a LocalModelCache or a
// LocalModelNamespaceCache as an explicit state machine: a model kept on the
// local disks of the nodes of its node groups so InferenceServices start
// without downloading it. It is pure: the controller observes the node groups,
// the nodes, the LocalModelNodes the node agents report on and the
// InferenceServices that use the cache, and this package decides.
package localmodelcache

// State is where a cache is in its lifecycle. Names answer the questions a
// user asks: is it resolving its node groups? waiting for one? distributing
// the model to the nodes? downloading (how many copies of how many)? ready?
// partially failed? waiting for InferenceServices to stop using it before it
// goes?
type State string

const (
	// Active is the superstate of every state of a live cache.
	Active State = "Active"
	// Pending: accepted, nothing done yet.
	Pending State = "Pending"
	// Recovering: the stored state was not recognised; re-deriving it.
	Recovering State = "Recovering"
	// ResolvingNodeGroups: loading the node groups the cache names.
	ResolvingNodeGroups State = "ResolvingNodeGroups"
	// WaitingForNodeGroup: a node group the cache names does not exist.
	WaitingForNodeGroup State = "WaitingForNodeGroup"
	// ConfigInvalid: the localModel key of inferenceservice-config is invalid,
	// or its job namespace does not exist.
	ConfigInvalid State = "ConfigInvalid"
	// WaitingForNodes: no Ready node belongs to the cache's node groups.
	WaitingForNodes State = "WaitingForNodes"
	// Distributing: writing the model into the LocalModelNode of every Ready
	// node of the node groups (and out of nodes that left them).
	Distributing State = "Distributing"
	// Downloading: every node has its entry; waiting for the node agents to
	// report the model downloaded on every Ready node.
	Downloading State = "Downloading"
	// Ready: every Ready node of the node groups has the model.
	Ready State = "Ready"
	// PartiallyFailed: the download failed on some nodes; others have the
	// model or are still downloading it.
	PartiallyFailed State = "PartiallyFailed"
	// Failed: the download failed on every Ready node.
	Failed State = "Failed"
	// WaitingForUsers: deletion was requested while InferenceServices still
	// use the cache; it waits for them to go.
	WaitingForUsers State = "WaitingForUsers"
	// Deleting: the model is being removed from every node and its volumes
	// deleted, then the finalizer goes.
	Deleting State = "Deleting"
)

// Trigger is an observation that moves the machine.
type Trigger string

const (
	Admitted            Trigger = "Admitted"
	NodeGroupsResolved  Trigger = "NodeGroupsResolved"
	NodeGroupMissing    Trigger = "NodeGroupMissing"
	ConfigRejected      Trigger = "ConfigRejected"
	NoReadyNodes        Trigger = "NoReadyNodes"
	NodesAvailable      Trigger = "NodesAvailable"
	NodesChanged        Trigger = "NodesChanged"
	EntriesWritten      Trigger = "EntriesWritten"
	AllCopiesAvailable  Trigger = "AllCopiesAvailable"
	SomeDownloadsFailed Trigger = "SomeDownloadsFailed"
	AllDownloadsFailed  Trigger = "AllDownloadsFailed"
	DownloadsInProgress Trigger = "DownloadsInProgress"
	SpecChanged         Trigger = "SpecChanged"
	DeletionRequested   Trigger = "DeletionRequested"
	UsersGone           Trigger = "UsersGone"
	RecoveryStarted     Trigger = "RecoveryStarted"
)

// MachineName is the machine's name in status.lifecycle.machine and in
// `fsmserve machines graph`.
const MachineName = "localmodelcache"

// Reasons recorded in status.lifecycle.reason for states whose reason does not
// come from the observation. Problem reasons (NodeGroupNotFound,
// InvalidLocalModelConfig) come from the observation.
const (
	ReasonPending         = "Pending"
	ReasonRecovering      = "RecoveringUnknownState"
	ReasonResolving       = "ResolvingNodeGroups"
	ReasonNoReadyNodes    = "NoReadyNodes"
	ReasonDistributing    = "Distributing"
	ReasonDownloading     = "Downloading"
	ReasonReady           = "AllCopiesAvailable"
	ReasonPartiallyFailed = "DownloadFailedOnSomeNodes"
	ReasonFailed          = "DownloadFailedOnAllNodes"
	ReasonInUse           = "InUseByInferenceServices"
	ReasonDeleting        = "Deleting"
)

// Reasons of problems: what stops the cache from being distributed.
const (
	ReasonNodeGroupNotFound    = "NodeGroupNotFound"
	ReasonJobNamespaceNotFound = "JobNamespaceNotFound"
)

// Activities: the steps the states run, by name.
const (
	// ActivityDistribute writes the cache's entry into the LocalModelNodes of
	// the member nodes (and removes it from nodes that left), then ensures
	// the volumes.
	ActivityDistribute = "Distribute"
	// ActivityEnsureVolumes creates the download and serving volumes the
	// cache needs and deletes those it no longer does.
	ActivityEnsureVolumes = "EnsureVolumes"
	// ActivityRemoveEverywhere removes the model from every node and deletes
	// the cache's volumes before it goes.
	ActivityRemoveEverywhere = "RemoveEverywhere"
)
