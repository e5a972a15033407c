// Package nodecache is the lifecycle of one cached model on one node, as an
// explicit state machine: the model is admitted against the node group's
// storage limit, downloaded (through the download Job machine), kept verified
// on disk, downloaded again when its folder disappears, and evicted with its
// folder when it leaves the node's spec. It is pure: the node agent observes
// the disk, the spec and the download, this package decides.
package nodecache

// State is where a model is on a node. Names answer what a user asks: is it
// here? is it on its way? is it waiting for disk space? did it fail? is it
// being removed?
type State string

const (
	// Active is the superstate of every state of a model the node's spec lists.
	Active State = "Active"
	// Absent: the model is not on the node (new, or just evicted).
	Absent State = "Absent"
	// Recovering: the stored state was not recognised; re-deriving it.
	Recovering State = "Recovering"
	// WaitingForCapacity: the model does not fit the node group's storage limit.
	WaitingForCapacity State = "WaitingForCapacity"
	// Downloading: its download Job machine is running.
	Downloading State = "Downloading"
	// Cached: the folder is on disk and verified.
	Cached State = "Cached"
	// Failed: the download gave up.
	Failed State = "Failed"
	// Evicting: the model left the spec; its Job and folder are being removed.
	Evicting State = "Evicting"
)

// Trigger is an observation that moves the machine.
type Trigger string

const (
	DownloadRequested Trigger = "DownloadRequested"
	CapacityExceeded  Trigger = "CapacityExceeded"
	CapacityAvailable Trigger = "CapacityAvailable"
	FolderFound       Trigger = "FolderFound"
	DownloadSucceeded Trigger = "DownloadSucceeded"
	DownloadFailed    Trigger = "DownloadFailed"
	DownloadRetried   Trigger = "DownloadRetried"
	FolderLost        Trigger = "FolderLost"
	ModelRemoved      Trigger = "ModelRemoved"
	ModelRequested    Trigger = "ModelRequested"
	EvictionComplete  Trigger = "EvictionComplete"
	Recovered         Trigger = "Recovered"
	RecoveryStarted   Trigger = "RecoveryStarted"
)

// MachineName is the machine's name in the lifecycle block and in
// `fsmserve machines graph`.
const MachineName = "nodecache"

// Reasons recorded for being in a state. A failed download takes its reason
// from the download lifecycle (BackoffLimitExceeded, ModelFolderMissing...).
const (
	ReasonAbsent               = "ModelAbsent"
	ReasonRecovering           = "RecoveringUnknownState"
	ReasonInsufficientCapacity = "InsufficientCapacity"
	ReasonDownloading          = "Downloading"
	ReasonCached               = "ModelCached"
	ReasonEvicting             = "Evicting"
	ReasonDownloadFailed       = "DownloadFailed"
)
