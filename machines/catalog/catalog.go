// Package catalog lists fsmserve's lifecycle machines for the CLI and the
// generated documentation.
package catalog

import (
	"sort"

	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/machines/inferencegraph"
	"github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/machines/nodecache"
)

// Machine is what the CLI and the docs need from a lifecycle declaration.
type Machine interface {
	DOT() string
	Mermaid() string
	Markdown(title, intro string) string
	Validate() error
}

// Entry is one machine with its page title and introduction.
type Entry struct {
	Name    string
	Title   string
	Intro   string
	Machine Machine
}

var entries = []Entry{
	{Name: inferenceservice.MachineName, Title: "InferenceService lifecycle", Intro: inferenceserviceIntro, Machine: inferenceservice.Definition},
	{Name: inferencegraph.MachineName, Title: "InferenceGraph lifecycle", Intro: inferencegraphIntro, Machine: inferencegraph.Definition},
	{Name: localmodelcache.MachineName, Title: "Local model cache lifecycle (LocalModelCache, LocalModelNamespaceCache)", Intro: localmodelcacheIntro, Machine: localmodelcache.Definition},
	{Name: nodecache.MachineName, Title: "Node cache lifecycle (LocalModelNode)", Intro: nodecacheIntro, Machine: nodecache.Definition},
	{Name: downloadjob.MachineName, Title: "Download Job lifecycle (LocalModelNode)", Intro: downloadjobIntro, Machine: downloadjob.Definition},
}

// All returns every machine, sorted by name.
func All() []Entry {
	out := append([]Entry(nil), entries...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Get returns the machine with the given name.
func Get(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Names lists the machine names.
func Names() []string {
	var out []string
	for _, e := range All() {
		out = append(out, e.Name)
	}
	return out
}

const inferenceserviceIntro = `
The lifecycle of an InferenceService predictor in Standard mode (a Deployment, a
Service, an HPA and, when configured, an Ingress). The current state is
` + "`status.lifecycle.state`" + ` (the STATE column of ` + "`kubectl get isvc`" + `); ` + "`kubectl describe isvc`" + `
shows the previous state, the trigger, the reason, what it waits for, the last
five transitions and the trace ID of the current episode. Every transition is an
Event whose reason names the edge (the failure reason on failure edges) and a
span in the episode's trace.

KServe's conditions are derived from what is observed, not from the state:
` + "`PredictorReady`" + ` follows the Deployment's conditions exactly as KServe reads them,
` + "`Ready`" + ` is ` + "`PredictorReady ∧ IngressReady`" + `, ` + "`Reconciling`" + ` is True in Progressing and
Degraded states and ` + "`Stalled`" + ` in Blocked ones, so kstatus-aware tools (Flux, Argo
CD, ` + "`kubectl wait`" + `) see a rollout finish or get stuck.
`

const inferencegraphIntro = `
The lifecycle of an InferenceGraph in Standard mode: one router Deployment, Service
(port 80 to the router's 8080) and HPA, all named after the graph and labelled
` + "`serving.kserve.io/inferencegraph`" + `. The current state is ` + "`status.lifecycle.state`" + `
(the STATE column of ` + "`kubectl get ig`" + `); ` + "`kubectl describe ig`" + ` shows the reason, the
message, what it waits for, the last five transitions and the trace ID of the
current episode. Every transition is an Event and a span in the episode's trace.

Each ` + "`serviceName`" + ` step is resolved to its InferenceService's ` + "`status.address.url`" + ` plus
the model path of its protocol (` + "`/v1/models/{model}:predict`" + ` or ` + "`/v2/models/{model}/infer`" + `),
with the model name and protocol derived as KServe derives them. A step whose
InferenceService is missing or not Ready holds the graph in
` + "`WaitingForInferenceService`" + `, or moves a graph that was Ready to ` + "`Degraded`" + `; the
message names the InferenceService, the step and why. fsmserve watches
InferenceServices and wakes exactly the graphs that name them; nothing polls.
When a resolved URL changes, the router's pod template changes and the router
rolls (` + "`RollingOut`" + `, still Ready).

` + "`Ready`" + ` is True only while the router Deployment's ` + "`Available`" + ` condition is True and
it runs the current graph (KServe reports Ready as soon as the condition exists,
whatever its status), and ` + "`status.url`" + ` (` + "`http://`" + ` and the ingress ` + "`domainTemplate`" + ` of
the graph's name) is set only while the router is available. ` + "`Reconciling`" + ` and
` + "`Stalled`" + ` follow the state's kind as for InferenceServices.

The router container runs ` + "`fsmserve router`" + ` explicitly (` + "`command: [fsmserve, router]`" + `)
with KServe's arguments (` + "`--graph-json <resolved spec>`" + `); its image is the
` + "`image`" + ` of the ` + "`router`" + ` key of inferenceservice-config, as in KServe. Point that key
at an image that contains the fsmserve binary: KServe's default
` + "`kserve/router`" + ` image does not, and a router that cannot start ends in ` + "`Failed`" + `
(ProgressDeadlineExceeded) with a message that says to check the image.
`

const localModelNodeStatus = `
Both LocalModelNode lifecycles are run by the node agent (` + "`fsmserve localmodel-agent`" + `, one per
node) for every model in ` + "`spec.localModels`" + `, and kept in ` + "`status.lifecycles`" + `, keyed like
KServe's ` + "`status.modelStatus`" + ` (the model name, or ` + "`namespace/name`" + ` for a
LocalModelNamespaceCache): ` + "`lifecycles[<key>]`" + ` is the node cache lifecycle and
` + "`lifecycles[<key>:download]`" + ` the download Job lifecycle (` + "`:`" + ` cannot appear in a key, so
the two never collide). ` + "`status.modelStatus`" + ` keeps KServe's values, derived from them:
` + "`ModelDownloaded`" + ` when Cached, ` + "`ModelDownloadError`" + ` when Failed, ` + "`ModelDownloading`" + `
while the Job's pod runs or the folder is verified, ` + "`ModelDownloadPending`" + ` otherwise.
Every transition is an Event on the LocalModelNode whose message names the model.
`

const nodecacheIntro = `
The lifecycle of one cached model on one node. A model is admitted against its node
group's ` + "`storageLimit`" + `: the models that already hold space on the node keep it, and new
ones are admitted in spec order while they fit; one that does not fit waits in
` + "`WaitingForCapacity`" + ` with reason ` + "`InsufficientCapacity`" + ` and a message that says how much it
needs and who holds the space, instead of failing later on a full disk. Sizes come from
the LocalModelCache's (or LocalModelNamespaceCache's) ` + "`modelSize`" + `; a model whose cache or
node group cannot be read is not held back. The folder ` + "`{modelsRoot}/models/{storageKey}`" + `
is verified on disk (exists, not empty) every ` + "`reconcilationFrequencyInSecs`" + `; a folder
deleted outside fsmserve is downloaded again through a new Job. A model that leaves the
spec is evicted: its Job is deleted and its folder removed, unless another entry with the
same source URI still uses it. Folders that no spec entry references are removed too.
` + localModelNodeStatus

const downloadjobIntro = `
The lifecycle of the download Job of one model on one node. The Job is built as KServe
builds it (the first enabled ClusterStorageContainer with ` + "`workloadType: localModelDownloadJob`" + `
that supports the URI, else ` + "`kserve-localmodel-download`" + ` with ` + "`localModel.defaultJobImage`" + `;
arguments ` + "`[sourceModelUri, /mnt/models]`" + `; the node group's download PVC mounted at
` + "`/mnt/models`" + ` with subPath ` + "`models/{storageKey}`" + `; pinned to the node; owned by the
LocalModelNode; ` + "`ttlSecondsAfterFinished`" + ` from ` + "`localModel.jobTTLSecondsAfterFinished`" + `).

There is at most one download Job per (node, model) at any time: the Job's name is
deterministic per (node, model), so the API server refuses a second one, and before
creating, the agent lists the Jobs labelled ` + "`node`" + `, ` + "`model`" + ` (and ` + "`modelNamespace`" + `) with a
fresh read and adopts a live one (after a restart, or from another replica). A finished
predecessor is deleted (with a UID precondition) before its successor is created.

A failed attempt (the Job failed, vanished, or left no folder) is retried after an
exponential backoff on the agent's clock (` + "`--download-backoff`" + `, doubling up to
` + "`--download-backoff-max`" + `), at most ` + "`--download-attempts`" + ` times per round; the attempt number
is the Job's ` + "`localmodel.fsmserve.io/attempt`" + ` label, and the round's bookkeeping (attempt,
last failure and when, what the Job was built from) is kept with the model's folder and
size in ` + "`status.annotations[\"localmodel.fsmserve.io/<key>\"]`" + `, so it survives restarts and
Job TTLs. A failed round starts again when the failed Job is deleted (by hand, or by its
TTL) or when what the Job is built from changes (the entry, the node group, the
configuration, the storage containers). A
Job that succeeds without leaving a folder on the node fails verification
(` + "`ModelFolderMissing`" + `): the usual cause is an agent whose models root differs from the
node group volume's path.
` + localModelNodeStatus

const localmodelcacheIntro = `
The lifecycle of a LocalModelCache (cluster-wide) or LocalModelNamespaceCache (usable
from its namespace only, and preferred there over a cluster cache of the same model).
The current state is ` + "`status.lifecycle.state`" + ` (the STATE column of
` + "`kubectl get localmodelcache`" + `, beside AVAILABLE and TOTAL copies); ` + "`kubectl describe`" + `
shows the reason, a message that names the nodes, node groups and InferenceServices
involved, what it waits for, and the last transitions. Every transition is an Event and
a span in the episode's trace. Run by ` + "`fsmserve manager`" + ` or ` + "`fsmserve localmodel-manager`" + `.

A node belongs to a cache when it matches the required node affinity of one of the
cache's node groups (` + "`LocalModelNodeGroup.spec.persistentVolumeSpec.nodeAffinity`" + `); the
first such group in ` + "`spec.nodeGroups`" + ` is the one its entry names. For every Ready member
node the cache writes an entry (sourceModelUri, modelName, nodeGroup,
serviceAccountName, storage; namespace for namespace caches) into ` + "`LocalModelNode/<node>`" + `,
with optimistic locking so caches sharing a node never lose each other's entries; the
node agent downloads the model and reports it in ` + "`status.modelStatus`" + `. Nodes that leave
the groups lose the entry. ` + "`status.nodeStatus`" + ` keeps KServe's values per member node
(` + "`NodeNotReady`" + ` for NotReady nodes, else the agent's report mapped to ` + "`NodeDownloadPending`" + `,
` + "`NodeDownloading`" + `, ` + "`NodeDownloaded`" + ` or ` + "`NodeDownloadError`" + `) and ` + "`status.copies`" + ` counts them.
Nodes joining, leaving, becoming Ready and agents reporting are watched; nothing polls.

Each node group gets a download PersistentVolume ` + "`{cache}-{group}-download`" + ` and claim
` + "`{cache}-{group}`" + ` in ` + "`localModel.jobNamespace`" + ` (namespace caches:
` + "`{cache}-{group}-{namespace}-download`" + ` for both). Each namespace whose InferenceServices
use the cache (label ` + "`internal.serving.kserve.io/localmodel`" + `, set by the InferenceService
defaulter) gets a serving PersistentVolume ` + "`{cache}-{group}-{namespace}`" + ` and claim
` + "`{cache}-{group}`" + ` for the node group they ask for (annotation ` + "`serving.kserve.io/nodegroup`" + `,
else the first); the pod mutator mounts that claim instead of downloading. Serving volumes
go when the last user of their namespace goes (unless ` + "`localModel.disableVolumeManagement`" + `).

Deleting a cache that InferenceServices still use is rejected by the validating webhook,
which names them; without the webhook the cache waits in ` + "`WaitingForUsers`" + ` and keeps the
model on the nodes until they are gone, then removes it from every LocalModelNode,
deletes its volumes and releases its finalizer (` + "`localmodel.kserve.io/finalizer`" + `,
` + "`localmodelnamespacecache.kserve.io/finalizer`" + `).
`
