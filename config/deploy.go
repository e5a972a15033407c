package config

import (
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// DeploymentMode is how an InferenceService is materialised.
type DeploymentMode string

const (
	// Standard is plain Deployments, Services and Ingress/HTTPRoutes (formerly
	// RawDeployment).
	Standard DeploymentMode = "Standard"
	// Knative is Knative Services (formerly Serverless).
	Knative DeploymentMode = "Knative"
	// ModelMesh hands the InferenceService to ModelMesh.
	ModelMesh DeploymentMode = "ModelMesh"

	// Legacy spellings KServe still accepts in the ConfigMap and in the
	// serving.kserve.io/deploymentMode annotation.
	LegacyRawDeployment = "RawDeployment"
	LegacyServerless    = "Serverless"
)

// NormalizeDeploymentMode maps a configured or annotated mode, legacy names
// included, to its current name. ok is false for anything else, including "".
// Matching is exact, as in KServe.
func NormalizeDeploymentMode(s string) (DeploymentMode, bool) {
	switch s {
	case string(Standard), LegacyRawDeployment:
		return Standard, true
	case string(Knative), LegacyServerless:
		return Knative, true
	case string(ModelMesh):
		return ModelMesh, true
	}
	return "", false
}

// DeploymentModeAnnotation lets an InferenceService choose its own mode.
const DeploymentModeAnnotation = "serving.kserve.io/deploymentMode"

// ModeFor resolves an InferenceService's mode the way KServe does: the mode
// already recorded in its status wins, because a running service never
// switches mode; then a recognised annotation; then the configured default.
// Unrecognised values fall through rather than fail, since the validating
// webhook is where a bad annotation is rejected.
func (c *DeployConfig) ModeFor(statusMode string, annotations map[string]string) DeploymentMode {
	if m, ok := NormalizeDeploymentMode(statusMode); ok {
		return m
	}
	if m, ok := NormalizeDeploymentMode(annotations[DeploymentModeAnnotation]); ok {
		return m
	}
	if c.DefaultDeploymentMode == "" {
		return Standard
	}
	return c.DefaultDeploymentMode
}

// DeployConfig is the `deploy` key.
type DeployConfig struct {
	// DefaultDeploymentMode is always normalised (never a legacy name).
	DefaultDeploymentMode     DeploymentMode             `json:"defaultDeploymentMode,omitempty"`
	DeploymentRolloutStrategy *DeploymentRolloutStrategy `json:"deploymentRolloutStrategy,omitempty"`
}

// DeploymentRolloutStrategy holds the rollout applied to Standard Deployments
// that do not set their own deploymentStrategy.
type DeploymentRolloutStrategy struct {
	DefaultRollout *RolloutSpec `json:"defaultRollout,omitempty"`
}

// RolloutSpec takes absolute numbers ("1") or percentages ("25%").
type RolloutSpec struct {
	MaxSurge       string `json:"maxSurge"`
	MaxUnavailable string `json:"maxUnavailable"`
}

// KServe's code insists on the key; fsmserve ships Standard as the default
// mode, so an absent key means Standard.
func defaultDeploy() DeployConfig { return DeployConfig{DefaultDeploymentMode: Standard} }

// DefaultRollout returns the rolling-update parameters for Standard
// Deployments without an explicit strategy, or nil when none applies. As in
// KServe it only applies when the default mode is Standard.
func (c *DeployConfig) DefaultRollout() *appsv1.RollingUpdateDeployment {
	if c.DefaultDeploymentMode != Standard || c.DeploymentRolloutStrategy == nil ||
		c.DeploymentRolloutStrategy.DefaultRollout == nil {
		return nil
	}
	r := c.DeploymentRolloutStrategy.DefaultRollout
	out := &appsv1.RollingUpdateDeployment{}
	if r.MaxSurge != "" {
		v := intstr.Parse(r.MaxSurge)
		out.MaxSurge = &v
	}
	if r.MaxUnavailable != "" {
		v := intstr.Parse(r.MaxUnavailable)
		out.MaxUnavailable = &v
	}
	return out
}

// deployDocument is the key as written: the mode is a free string until it
// has been normalised.
type deployDocument struct {
	DefaultDeploymentMode     string                     `json:"defaultDeploymentMode"`
	DeploymentRolloutStrategy *DeploymentRolloutStrategy `json:"deploymentRolloutStrategy"`
}

func parseDeploy(raw string, c *Config) *KeyError {
	var doc deployDocument
	if ke := decodeJSON(KeyDeploy, raw, &doc); ke != nil {
		return ke
	}
	if strings.TrimSpace(doc.DefaultDeploymentMode) == "" {
		return &KeyError{Key: KeyDeploy, Field: "defaultDeploymentMode", Problem: "is required when the deploy key is set",
			Fix: `set it to "Standard", "Knative" or "ModelMesh", or remove the deploy key to use Standard`}
	}
	mode, ok := NormalizeDeploymentMode(doc.DefaultDeploymentMode)
	if !ok {
		return &KeyError{Key: KeyDeploy, Field: "defaultDeploymentMode",
			Problem: fmt.Sprintf("unknown deployment mode %q", doc.DefaultDeploymentMode),
			Fix:     `use "Standard", "Knative" or "ModelMesh" (the legacy names "RawDeployment" and "Serverless" are also accepted)`}
	}
	if ke := validateRollout(doc.DeploymentRolloutStrategy); ke != nil {
		ke.Key = KeyDeploy
		return ke
	}
	c.Deploy = DeployConfig{DefaultDeploymentMode: mode, DeploymentRolloutStrategy: doc.DeploymentRolloutStrategy}
	return nil
}

func validateRollout(s *DeploymentRolloutStrategy) *KeyError {
	if s == nil || s.DefaultRollout == nil {
		return nil
	}
	r := s.DefaultRollout
	const prefix = "deploymentRolloutStrategy.defaultRollout."
	surge, ke := parseIntOrPercent(prefix+"maxSurge", r.MaxSurge, false)
	if ke != nil {
		return ke
	}
	unavailable, ke := parseIntOrPercent(prefix+"maxUnavailable", r.MaxUnavailable, true)
	if ke != nil {
		return ke
	}
	if surge == 0 && unavailable == 0 {
		return &KeyError{Field: prefix + "maxUnavailable",
			Problem: "maxSurge and maxUnavailable are both zero, so a rollout could never progress",
			Fix:     "make at least one of them greater than zero"}
	}
	return nil
}

// parseIntOrPercent accepts the forms a Deployment's rolling update takes: a
// non-negative whole number or a percentage (at most 100% where the API server
// caps it). It returns the number, or -1 when the value is unset so that an
// unset field never counts as zero.
func parseIntOrPercent(field, value string, capAt100 bool) (int, *KeyError) {
	if value == "" {
		return -1, nil
	}
	fix := `use a whole number such as "1" or a percentage such as "25%"`
	digits, percent := strings.CutSuffix(value, "%")
	n, err := strconv.ParseInt(digits, 10, 32)
	if err != nil || n < 0 {
		return 0, &KeyError{Field: field, Problem: fmt.Sprintf("%q is not a non-negative number or percentage", value), Fix: fix}
	}
	if percent && capAt100 && n > 100 {
		return 0, &KeyError{Field: field, Problem: fmt.Sprintf("%q is more than 100%%", value), Fix: "use at most 100%"}
	}
	return int(n), nil
}
