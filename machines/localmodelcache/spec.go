package localmodelcache

import "github.com/fsmserve/fsmserve/machines/engine"

// Definition is the LocalModelCache lifecycle's declaration; LocalModelCaches and
// LocalModelNamespaceCaches share it.
var Definition = &engine.Definition[State, Trigger, Observation]{
	Name:            MachineName,
	Initial:         Pending,
	Recovery:        Recovering,
	RecoveryTrigger: RecoveryStarted,
	States: []engine.StateRecord[State]{
		{State: Active, Kind: engine.Abstract, Description: "Every state of a live cache; deletion, spec changes and problems are handled here once."},
		{State: Pending, Kind: engine.Progressing, Description: "Accepted; fsmserve has not acted on it yet."},
		{State: Recovering, Kind: engine.Progressing, Description: "The state stored in status was not recognised (left by another version or edited by hand); the next observation decides where it really is."},
		{State: ResolvingNodeGroups, Kind: engine.Progressing, TakesUpGeneration: true, Description: "Loading the LocalModelNodeGroups named in spec.nodeGroups; their PersistentVolume templates' required node affinity says which nodes get the model."},
		{State: WaitingForNodeGroup, Kind: engine.Blocked, Description: "A node group named in spec.nodeGroups does not exist (NodeGroupNotFound); the message names it. Copies already on nodes stay. Leaves by itself when the LocalModelNodeGroup is created."},
		{State: ConfigInvalid, Kind: engine.Blocked, Description: "The localModel key of inferenceservice-config is invalid, or the namespace its jobNamespace names does not exist (JobNamespaceNotFound), so the download volumes and Jobs have nowhere to go; leaves by itself when the ConfigMap is fixed or the namespace created."},
		{State: WaitingForNodes, Kind: engine.Blocked, Activity: ActivityEnsureVolumes, Description: "No Ready node matches the node groups' affinity: none is labelled to match, or every match is NotReady (named in the message). Leaves by itself when a node joins or becomes Ready."},
		{State: Distributing, Kind: engine.Progressing, TakesUpGeneration: true, Activity: ActivityDistribute, Description: "Adding the model to the LocalModelNode of every Ready node of the node groups (and removing it from nodes that left them), and creating the download PersistentVolume and claim of each node group in the job namespace."},
		{State: Downloading, Kind: engine.Progressing, Activity: ActivityEnsureVolumes, Description: "Every node has its entry; the node agents download the model. The message says how many copies of how many are available and where downloads are running or pending."},
		{State: Ready, Kind: engine.Settled, Activity: ActivityEnsureVolumes, Description: "Every Ready node of the node groups has the model (status.copies.available equals the Ready nodes). NotReady nodes are listed, not counted."},
		{State: PartiallyFailed, Kind: engine.Degraded, Activity: ActivityEnsureVolumes, Description: "The download failed on some nodes (named with their agent's reason) while others have the model or still download it. InferenceServices scheduled on nodes with a copy are served; the agents retry."},
		{State: Failed, Kind: engine.Blocked, Activity: ActivityEnsureVolumes, Description: "The download failed on every Ready node, usually a wrong sourceModelUri or missing credentials. Recovers when an agent reports a copy again."},
		{State: WaitingForUsers, Kind: engine.Final, Description: "Deletion was requested while InferenceServices (named in the message and in status.inferenceServices) still use the cache; the model stays on the nodes until they are deleted or stop using it."},
		{State: Deleting, Kind: engine.Final, Activity: ActivityRemoveEverywhere, Description: "Removing the model from every LocalModelNode and deleting the download and serving volumes, then the finalizer."},
	},
	Triggers: []engine.TriggerRecord[Trigger]{
		{Trigger: Admitted, Description: "A new cache is taken up."},
		{Trigger: NodeGroupsResolved, Description: "Every node group in spec.nodeGroups exists, the configuration is valid and its job namespace exists."},
		{Trigger: NodeGroupMissing, Description: "A node group in spec.nodeGroups does not exist.", Ambient: true},
		{Trigger: ConfigRejected, Description: "The localModel key of inferenceservice-config is invalid, or its jobNamespace does not exist.", Ambient: true},
		{Trigger: NoReadyNodes, Description: "No Ready node belongs to the node groups."},
		{Trigger: NodesAvailable, Description: "A Ready node belongs to the node groups."},
		{Trigger: NodesChanged, Description: "A node joined the node groups, became Ready or left them, or the spec the nodes hold changed: LocalModelNode entries are out of date."},
		{Trigger: EntriesWritten, Description: "Every Ready node's LocalModelNode holds the cache's current entry and no other node holds it."},
		{Trigger: AllCopiesAvailable, Description: "Every Ready node reports the model downloaded."},
		{Trigger: SomeDownloadsFailed, Description: "Some Ready nodes report the download failed, not all."},
		{Trigger: AllDownloadsFailed, Description: "Every Ready node reports the download failed."},
		{Trigger: DownloadsInProgress, Description: "No node reports a failure and some Ready node does not have the model (yet, or any more)."},
		{Trigger: SpecChanged, Description: "metadata.generation moved past the generation last acted on.", Ambient: true},
		{Trigger: DeletionRequested, Description: "The cache has a deletion timestamp.", Ambient: true},
		{Trigger: UsersGone, Description: "No InferenceService uses the cache any more."},
		{Trigger: RecoveryStarted, Description: "The stored state is not one this version knows.", Ambient: true},
	},
	Define:   Define,
	Classify: Classify,
	Explain:  Explain,
}
