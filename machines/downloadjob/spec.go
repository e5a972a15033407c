package downloadjob

import "github.com/fsmserve/fsmserve/machines/engine"

// Definition is the download Job lifecycle's declaration.
var Definition = &engine.Definition[State, Trigger, Observation]{
	Name:            MachineName,
	Initial:         Pending,
	Recovery:        Recovering,
	RecoveryTrigger: RecoveryStarted,
	States: []engine.StateRecord[State]{
		{State: Active, Kind: engine.Abstract, Description: "Every state of a download that the node cache still wants; cancellation is handled here once."},
		{State: Pending, Kind: engine.Progressing, Description: "The model should be on the node and no Job runs for it: the agent creates the download Job (after deleting a finished predecessor), or adopts a live one it finds by its labels."},
		{State: Recovering, Kind: engine.Progressing, Description: "The state stored in status was not recognised (left by another version or edited by hand); the Job found by its labels and the folder on disk decide where it really is."},
		{State: JobCreated, Kind: engine.Progressing, Description: "The download Job exists; its pod is not running yet (scheduling, pulling the image)."},
		{State: Downloading, Kind: engine.Progressing, Description: "The Job's pod runs and writes the model into the node group's volume."},
		{State: Verifying, Kind: engine.Progressing, Description: "The Job finished (or vanished); the agent checks that {modelsRoot}/models/{storageKey} exists on the node and is not empty. A Job that succeeded without writing there (for example because the agent's models root and the volume's path differ) fails this check instead of looping."},
		{State: Downloaded, Kind: engine.Settled, Description: "The model folder is on the node's disk and not empty."},
		{State: WaitingToRetry, Kind: engine.Degraded, Description: "An attempt failed (the Job failed, vanished, or left no folder) and attempts are left; the next Job is created when the exponential backoff has elapsed. The reason is the failure's."},
		{State: Failed, Kind: engine.Blocked, Description: "Every attempt of this round failed, or the Job cannot be built or was rejected by the API server. A new round starts when the failed Job is deleted or when what the Job is built from (spec entry, node group, configuration, storage containers) changes."},
		{State: Cancelled, Kind: engine.Final, Description: "The model left the node's spec (or another copy took over); its Job is deleted."},
	},
	Triggers: []engine.TriggerRecord[Trigger]{
		{Trigger: JobAccepted, Description: "A live download Job of this model and node exists: the agent created it, or found it by its labels (after a restart, or created by another agent replica)."},
		{Trigger: JobRejected, Description: "The Job cannot be built (no node group, an invalid storage container) or the API server refused it."},
		{Trigger: PodRunning, Description: "The Job reports a ready pod (status.ready > 0)."},
		{Trigger: JobSucceeded, Description: "The Job completed (condition Complete)."},
		{Trigger: JobFailed, Description: "The Job failed (condition Failed, e.g. BackoffLimitExceeded)."},
		{Trigger: JobGone, Description: "The Job vanished before it was seen finishing; the folder on disk decides."},
		{Trigger: FolderVerified, Description: "The model folder exists and is not empty."},
		{Trigger: VerificationFailed, Description: "The Job finished but the model folder is missing or empty."},
		{Trigger: BackoffElapsed, Description: "The backoff after a failed attempt has elapsed on the agent's clock."},
		{Trigger: RetryRequested, Description: "The failed Job was deleted, or the Job's inputs changed: a new round of attempts starts."},
		{Trigger: RedownloadRequested, Description: "The model folder disappeared from the node after the download (deleted outside fsmserve)."},
		{Trigger: Recovered, Description: "Recovery found no Job and no folder: start over."},
		{Trigger: DownloadCancelled, Description: "The node cache no longer wants this download (the model left the spec).", Ambient: true},
		{Trigger: RecoveryStarted, Description: "The stored state is not one this version knows.", Ambient: true},
	},
	Define:   Define,
	Classify: Classify,
	Explain:  Explain,
}
