package inferenceservice

import (
	"slices"
	"strings"

	"github.com/fsmserve/fsmserve/config"
)

// Capabilities says what this installation honours. Admission rejects the
// fields it cannot honour, with a message saying what runs instead, because
// fsmserve never ignores a field silently.
type Capabilities struct {
	// Modes are the deployment modes the controllers run.
	Modes []config.DeploymentMode
	// Transformer: spec.transformer runs as its own component.
	Transformer bool
	// Explainer: spec.explainer runs as its own component.
	Explainer bool
	// Canary: spec.canary (Standard-mode canary predictors) is rolled out.
	Canary bool
	// MultiNode: predictor.workerSpec (head plus workers) is deployed.
	MultiNode bool
	// KEDA: the keda autoscaler class creates ScaledObjects.
	KEDA bool
}

// CurrentCapabilities is what fsmserve honours today: Standard mode, the
// predictor only (a collocated transformer-container included), with the
// hpa, external and none autoscaler classes.
func CurrentCapabilities() Capabilities {
	return Capabilities{Modes: []config.DeploymentMode{config.Standard}}
}

// AllCapabilities is every feature KServe has; admission then enforces
// KServe's rules only. Tests use it to exercise the rules of features that
// CurrentCapabilities rejects outright.
func AllCapabilities() Capabilities {
	return Capabilities{
		Modes:       []config.DeploymentMode{config.Standard, config.Knative, config.ModelMesh},
		Transformer: true, Explainer: true, Canary: true, MultiNode: true, KEDA: true,
	}
}

// SupportsMode reports whether the installation runs mode m.
func (c Capabilities) SupportsMode(m config.DeploymentMode) bool {
	return slices.Contains(c.Modes, m)
}

// modeList names the supported modes for messages, e.g. "Standard".
func (c Capabilities) modeList() string {
	if len(c.Modes) == 0 {
		return "none"
	}
	names := make([]string, len(c.Modes))
	for i, m := range c.Modes {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// preferredMode is the mode messages suggest instead of an unsupported one.
func (c Capabilities) preferredMode() config.DeploymentMode {
	if len(c.Modes) == 0 || c.SupportsMode(config.Standard) {
		return config.Standard
	}
	return c.Modes[0]
}

// autoscalerClasses lists the classes a user may choose, for messages.
func (c Capabilities) autoscalerClasses() string {
	if c.KEDA {
		return "hpa (the default), keda, external or none"
	}
	return "hpa (the default), external or none"
}
