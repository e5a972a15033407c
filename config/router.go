package config

import (
	"fmt"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// DefaultRouterImage is fsmserve's own image: the router Deployment runs
// `fsmserve router` (KServe's image would not contain it). A configuration
// copied from KServe that names kserve/router gets a router pod that fails
// to start, which the InferenceGraph lifecycle reports as Failed.
const DefaultRouterImage = "fsmserve/fsmserve:latest"

// RouterConfig is the `router` key: the InferenceGraph router Deployment.
type RouterConfig struct {
	Image string `json:"image"`
	ResourceConfig
	// Headers maps an operation to header patterns; only "propagate" exists.
	// The map leaves room for more operations, as in KServe.
	Headers          map[string][]string `json:"headers"`
	ImagePullPolicy  corev1.PullPolicy   `json:"imagePullPolicy"`
	ImagePullSecrets []string            `json:"imagePullSecrets"`
}

// headersPropagate is the operation whose patterns the router copies from the
// incoming request to every downstream call.
const headersPropagate = "propagate"

func routerResources() ResourceConfig {
	return ResourceConfig{CPURequest: "100m", CPULimit: "1", MemoryRequest: "100Mi", MemoryLimit: "1Gi"}
}

func defaultRouter() RouterConfig {
	return RouterConfig{Image: DefaultRouterImage, ResourceConfig: routerResources(), ImagePullPolicy: corev1.PullIfNotPresent}
}

// PropagateHeaders are the header-name patterns (Go regular expressions) the
// router forwards; the controller joins them with commas into the router's
// PROPAGATE_HEADERS env var.
func (c *RouterConfig) PropagateHeaders() []string {
	return append([]string(nil), c.Headers[headersPropagate]...)
}

// PullSecrets turns the configured secret names into pod image pull secrets.
func (c *RouterConfig) PullSecrets() []corev1.LocalObjectReference {
	if len(c.ImagePullSecrets) == 0 {
		return nil
	}
	out := make([]corev1.LocalObjectReference, 0, len(c.ImagePullSecrets))
	for _, name := range c.ImagePullSecrets {
		out = append(out, corev1.LocalObjectReference{Name: name})
	}
	return out
}

func (c *RouterConfig) validate() *KeyError {
	orDefault(&c.Image, DefaultRouterImage)
	c.fillFrom(routerResources())
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = corev1.PullIfNotPresent
	}
	if ke := c.ResourceConfig.validate(""); ke != nil {
		return ke
	}
	switch c.ImagePullPolicy {
	case corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
	default:
		return &KeyError{Field: "imagePullPolicy", Problem: fmt.Sprintf("unknown pull policy %q", c.ImagePullPolicy),
			Fix: `use "Always", "IfNotPresent" or "Never"`}
	}
	for i, name := range c.ImagePullSecrets {
		if name == "" {
			return &KeyError{Field: fmt.Sprintf("imagePullSecrets[%d]", i), Problem: "is empty", Fix: "remove the entry or name a Secret"}
		}
		if ke := validateObjectName(fmt.Sprintf("imagePullSecrets[%d]", i), name); ke != nil {
			return ke
		}
	}
	return c.validateHeaders()
}

// validateHeaders compiles every pattern now: the router compiles them at
// start-up and exits on the first bad one, which would leave every graph down.
func (c *RouterConfig) validateHeaders() *KeyError {
	for i, pattern := range c.Headers[headersPropagate] {
		field := fmt.Sprintf("headers.propagate[%d]", i)
		if strings.Contains(pattern, ",") {
			return &KeyError{Field: field, Problem: fmt.Sprintf("%q contains a comma, which separates patterns in the router's environment", pattern),
				Fix: "split it into one entry per pattern"}
		}
		if _, err := regexp.Compile(pattern); err != nil {
			return &KeyError{Field: field, Problem: fmt.Sprintf("%q is not a Go regular expression: %v", pattern, err),
				Fix: `write a regular expression, e.g. "Trace-Id.*" rather than the glob "*Trace-Id*"`}
		}
	}
	return nil
}
