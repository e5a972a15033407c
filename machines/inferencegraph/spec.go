package inferencegraph

import "github.com/fsmserve/fsmserve/machines/engine"

// Machine is the InferenceGraph lifecycle's declaration.
var Machine = &engine.Spec[State, Trigger, Observation]{
	Name:     MachineName,
	Initial:  Pending,
	Recovery: Recovering,
	States: []engine.StateInfo[State]{
		{State: Active, Kind: engine.Abstract, Description: "Every state of a live InferenceGraph; deletion, stop, spec changes and problems are handled here once."},
		{State: Pending, Kind: engine.Progressing, Description: "Accepted; fsmserve has not acted on it yet."},
		{State: Recovering, Kind: engine.Progressing, Description: "The state stored in status was not recognised (left by another version or edited by hand); the next observation decides where it really is."},
		{State: ResolvingSteps, Kind: engine.Progressing, Description: "Turning every serviceName step into the URL the router calls: the InferenceService's status.address.url plus the model path of its protocol (/v1/models/{model}:predict or /v2/models/{model}/infer)."},
		{State: WaitingForInferenceService, Kind: engine.Progressing, Description: "A step names an InferenceService that does not exist (InferenceServiceNotFound) or is not Ready (InferenceServiceNotReady); the message names it, the step and why. Nothing new is deployed; leaves by itself when the InferenceService becomes Ready (fsmserve watches InferenceServices, it does not poll)."},
		{State: InvalidSpec, Kind: engine.Blocked, Description: "The router cannot be built from the graph as written: no root node, an empty Sequence, a step without a target, naming a missing node or with a serviceUrl that is not an absolute http(s) URL, nodes in a cycle, an InferenceService whose runtime speaks neither v1 nor v2, or the API server rejected the router. The message names the field and what to fix."},
		{State: ConfigInvalid, Kind: engine.Blocked, Description: "A key of inferenceservice-config the graph needs (router, ingress, deploy) is invalid; the reason names the key. Leaves by itself when the ConfigMap is fixed."},
		{State: DeployingRouter, Kind: engine.Progressing, Description: "The router Deployment, Service and HPA exist; waiting for the first version to become available. Nothing serves yet."},
		{State: RollingOut, Kind: engine.Progressing, Description: "A new router version rolls out (the graph changed, or an InferenceService it calls moved or changed its model name or protocol) while the previous version keeps serving. The graph stays Ready."},
		{State: Ready, Kind: engine.Settled, Description: "The router Deployment is available and runs the current graph, and every InferenceService the graph calls is Ready."},
		{State: Degraded, Kind: engine.Degraded, Description: "It was ready and lost something: an InferenceService a step calls went away or is no longer Ready (named in the message), or the router lost availability. Returns to Ready by itself when it comes back."},
		{State: Failed, Kind: engine.Blocked, Description: "The router's rollout failed: ProgressDeadlineExceeded or ReplicaFailure (often a router image that cannot be pulled or started). Recovers when the Deployment becomes available, or starts a new rollout on the next change."},
		{State: Stopped, Kind: engine.Settled, Description: "Stopped by the serving.kserve.io/stop annotation: the router's Deployment, Service and HPA are deleted, the object stays. Removing the annotation resumes it."},
		{State: UnsupportedMode, Kind: engine.Blocked, Description: "The graph asks for a deployment mode fsmserve does not run yet (Knative/Serverless, ModelMesh). The mode is sticky, so recreate it in Standard mode."},
		{State: Deleting, Kind: engine.Final, Description: "Being deleted; the router's children are deleted, then the finalizer is removed."},
	},
	Triggers: []engine.TriggerInfo[Trigger]{
		{Trigger: Admitted, Description: "The deployment mode is one fsmserve runs."},
		{Trigger: ModeRejected, Description: "The deployment mode (from status, annotation or config default) is not one fsmserve runs."},
		{Trigger: StepsResolved, Description: "Every serviceName step resolved to a URL and the router was built without a problem."},
		{Trigger: InferenceServiceUnavailable, Description: "A step names an InferenceService that is missing or not Ready.", Ambient: true},
		{Trigger: SpecRejected, Description: "The router cannot be built from the graph, or the API server rejected it.", Ambient: true},
		{Trigger: ConfigRejected, Description: "A key of inferenceservice-config that the graph needs is invalid.", Ambient: true},
		{Trigger: RolloutStarted, Description: "The router Deployment does not yet run the current graph on every replica."},
		{Trigger: RolloutSucceeded, Description: "The router runs the current graph and is available."},
		{Trigger: RolloutFailed, Description: "The router Deployment reports ProgressDeadlineExceeded or ReplicaFailure."},
		{Trigger: AvailabilityLost, Description: "The router Deployment is no longer available."},
		{Trigger: AvailabilityRestored, Description: "The router is available with the current graph and every InferenceService is Ready again."},
		{Trigger: Recovered, Description: "A failed router Deployment became available with the current graph."},
		{Trigger: SpecChanged, Description: "metadata.generation moved past the generation last acted on.", Ambient: true},
		{Trigger: StopRequested, Description: "The serving.kserve.io/stop annotation is \"true\".", Ambient: true},
		{Trigger: ResumeRequested, Description: "The stop annotation was removed or set to \"false\"."},
		{Trigger: DeletionRequested, Description: "The object has a deletion timestamp.", Ambient: true},
		{Trigger: StateUnknown, Description: "The stored state is not one this version knows.", Ambient: true},
	},
	Define:   Define,
	Classify: Classify,
	Explain:  Explain,
}
