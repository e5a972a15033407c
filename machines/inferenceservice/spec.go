package inferenceservice

import "github.com/fsmserve/fsmserve/machines/engine"

// Machine is the InferenceService lifecycle's declaration.
var Machine = &engine.Spec[State, Trigger, Observation]{
	Name:     MachineName,
	Initial:  Pending,
	Recovery: Recovering,
	States: []engine.StateInfo[State]{
		{State: Active, Kind: engine.Abstract, Description: "Every state of a live InferenceService; deletion, stop, spec changes and problems are handled here once."},
		{State: Pending, Kind: engine.Progressing, Description: "Accepted; fsmserve has not acted on it yet."},
		{State: Recovering, Kind: engine.Progressing, Description: "The state stored in status was not recognised (left by another version or edited by hand); the next observation decides where it really is."},
		{State: Resolving, Kind: engine.Progressing, Description: "Choosing the serving runtime (explicit, or auto-selected by model format, version, protocol and priority) and building the predictor from runtime and spec."},
		{State: RuntimeUnavailable, Kind: engine.Blocked, Description: "No usable serving runtime: the named one does not exist (RuntimeNotRecognized), is disabled (RuntimeDisabled), or none supports the model format, version or protocol (NoSupportingRuntime). Leaves by itself when a matching runtime appears."},
		{State: InvalidSpec, Kind: engine.Blocked, Description: "The predictor cannot be built from the spec and runtime (for example the runtime has no kserve-container, a template placeholder does not render, or the API server rejected the Deployment). The reason and message say what to fix."},
		{State: ConfigInvalid, Kind: engine.Blocked, Description: "The inferenceservice-config ConfigMap has an invalid value this InferenceService needs; the reason names the key (for example InvalidIngressConfig). Leaves by itself when the ConfigMap is fixed."},
		{State: Deploying, Kind: engine.Progressing, Description: "The predictor Deployment and Service exist; waiting for the first version to become available. Nothing serves yet."},
		{State: RollingOut, Kind: engine.Progressing, Description: "A new version of the predictor is rolling out while the previous version keeps serving."},
		{State: Ready, Kind: engine.Settled, Description: "The current version is fully rolled out and available."},
		{State: Degraded, Kind: engine.Degraded, Description: "It was ready and the predictor lost availability (pods lost, replicas unavailable). Returns to Ready by itself when availability comes back."},
		{State: Failed, Kind: engine.Blocked, Description: "The rollout failed: the Deployment exceeded its progress deadline (ProgressDeadlineExceeded) or could not create replicas (ReplicaFailure). Recovers when the Deployment becomes available, or starts a new rollout on the next change."},
		{State: Stopped, Kind: engine.Settled, Description: "Stopped by the serving.kserve.io/stop annotation: workloads are deleted, the object stays. Removing the annotation resumes it."},
		{State: UnsupportedMode, Kind: engine.Blocked, Description: "The InferenceService asks for a deployment mode fsmserve does not run yet (Knative/Serverless, ModelMesh). The mode is sticky, so recreate it in Standard mode."},
		{State: Deleting, Kind: engine.Final, Description: "Being deleted; children go with it through owner references."},
	},
	Triggers: []engine.TriggerInfo[Trigger]{
		{Trigger: Admitted, Description: "The deployment mode is one fsmserve runs."},
		{Trigger: ModeRejected, Description: "The deployment mode (from status, annotation or config default) is not one fsmserve runs."},
		{Trigger: RuntimeResolved, Description: "A runtime was chosen and the predictor built without a problem."},
		{Trigger: RuntimeMissing, Description: "No usable runtime: not found, disabled, or none supports the model.", Ambient: true},
		{Trigger: SpecRejected, Description: "The predictor cannot be built, or the API server rejected it.", Ambient: true},
		{Trigger: ConfigRejected, Description: "A key of inferenceservice-config that this object needs is invalid.", Ambient: true},
		{Trigger: RolloutStarted, Description: "The Deployment runs a version that is not fully rolled out."},
		{Trigger: RolloutSucceeded, Description: "The current version is fully rolled out and available."},
		{Trigger: RolloutFailed, Description: "The Deployment reports ProgressDeadlineExceeded or ReplicaFailure."},
		{Trigger: AvailabilityLost, Description: "The Deployment is no longer available."},
		{Trigger: AvailabilityRestored, Description: "The Deployment is available again with the current version."},
		{Trigger: Recovered, Description: "A failed Deployment became available with the current version."},
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
