package nodecache

import "github.com/fsmserve/fsmserve/machines/engine"

// Definition is the node cache lifecycle's declaration.
var Definition = &engine.Definition[State, Trigger, Observation]{
	Name:            MachineName,
	Initial:         Absent,
	Recovery:        Recovering,
	RecoveryTrigger: RecoveryStarted,
	States: []engine.StateRecord[State]{
		{State: Active, Kind: engine.Abstract, Description: "Every state of a model the node's spec lists; removal from the spec is handled here once."},
		{State: Absent, Kind: engine.Progressing, Description: "The model is not on this node: just listed, or just evicted (then the agent forgets it)."},
		{State: Recovering, Kind: engine.Progressing, Description: "The state stored in status was not recognised (left by another version or edited by hand); the disk decides where it really is."},
		{State: WaitingForCapacity, Kind: engine.Blocked, Description: "The model does not fit: its modelSize plus the sizes of the models already holding space on this node exceed the node group's storageLimit. The reason is InsufficientCapacity and the message says how much is needed, how much is free and who holds it. It downloads by itself when space is freed or the limit is raised."},
		{State: Downloading, Kind: engine.Progressing, Description: "The model holds its space and its download runs (see the download lifecycle, key <model>:download), or another spec entry with the same source URI fills the shared folder."},
		{State: Cached, Kind: engine.Settled, Description: "The model folder is on the node's disk and verified; it is checked again every reconcilationFrequencyInSecs."},
		{State: Failed, Kind: engine.Blocked, Description: "The download gave up (see the download lifecycle for every attempt). The model keeps its space; it moves on when the download retries or the folder appears."},
		{State: Evicting, Kind: engine.Progressing, Description: "The model left the node's spec: its download Job is deleted and its folder removed (unless another entry still uses the same folder)."},
	},
	Triggers: []engine.TriggerRecord[Trigger]{
		{Trigger: DownloadRequested, Description: "The model is listed, not on disk, and fits the node group's storage limit."},
		{Trigger: CapacityExceeded, Description: "The model is listed, not on disk, and does not fit the storage limit."},
		{Trigger: CapacityAvailable, Description: "Space was freed (or the limit raised) and the model now fits."},
		{Trigger: FolderFound, Description: "The model folder is already on disk and verified (a shared folder, or one kept across a restart)."},
		{Trigger: DownloadSucceeded, Description: "The download lifecycle reached Downloaded and the folder is verified."},
		{Trigger: DownloadFailed, Description: "The download lifecycle gave up (Failed)."},
		{Trigger: DownloadRetried, Description: "The download lifecycle started a new round after giving up."},
		{Trigger: FolderLost, Description: "The cached folder disappeared or became empty (deleted outside fsmserve)."},
		{Trigger: ModelRemoved, Description: "The node's spec no longer lists the model.", Ambient: true},
		{Trigger: ModelRequested, Description: "The spec lists the model again while it is being evicted."},
		{Trigger: EvictionComplete, Description: "The model's Jobs are gone and its folder is removed."},
		{Trigger: Recovered, Description: "Recovery found no folder: start from Absent."},
		{Trigger: RecoveryStarted, Description: "The stored state is not one this version knows.", Ambient: true},
	},
	Define:   Define,
	Classify: Classify,
	Explain:  Explain,
}
