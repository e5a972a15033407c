package config

import (
	"fmt"
	"math"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
)

// LocalModel defaults. The job image, TTL and frequency are KServe's code
// defaults; the job namespace is the shipped one because KServe's code has
// none and download Jobs need a namespace.
const (
	DefaultLocalModelJobNamespace       = "kserve-localmodel-jobs"
	DefaultLocalModelJobImage           = DefaultStorageInitializerImage
	DefaultJobTTLSecondsAfterFinished   = 3600
	DefaultReconcilationFrequencyInSecs = 60
)

// LocalModelConfig is the `localModel` key: model caching on node-local
// storage.
type LocalModelConfig struct {
	Enabled         bool   `json:"enabled"`
	JobNamespace    string `json:"jobNamespace"`
	DefaultJobImage string `json:"defaultJobImage,omitempty"`
	// FSGroup, when set, is the fsGroup of download Jobs and node agents.
	FSGroup                    *int64 `json:"fsGroup,omitempty"`
	JobTTLSecondsAfterFinished int32  `json:"jobTTLSecondsAfterFinished,omitempty"`
	// ReconcilationFrequencyInSecs keeps KServe's spelling of the JSON field.
	ReconcilationFrequencyInSecs int64 `json:"reconcilationFrequencyInSecs,omitempty"`
	DisableVolumeManagement      bool  `json:"disableVolumeManagement,omitempty"`
}

// maxDurationSeconds keeps ReconcilationFrequency from overflowing time.Duration.
const maxDurationSeconds = int64(math.MaxInt64 / int64(time.Second))

func defaultLocalModel() LocalModelConfig {
	return LocalModelConfig{
		JobNamespace:                 DefaultLocalModelJobNamespace,
		DefaultJobImage:              DefaultLocalModelJobImage,
		JobTTLSecondsAfterFinished:   DefaultJobTTLSecondsAfterFinished,
		ReconcilationFrequencyInSecs: DefaultReconcilationFrequencyInSecs,
	}
}

// ReconcilationFrequency is how often node agents re-check their model folders.
func (c LocalModelConfig) ReconcilationFrequency() time.Duration {
	return time.Duration(c.ReconcilationFrequencyInSecs) * time.Second
}

func (c *LocalModelConfig) validate() *KeyError {
	orDefault(&c.JobNamespace, DefaultLocalModelJobNamespace)
	orDefault(&c.DefaultJobImage, DefaultLocalModelJobImage)
	if errs := validation.IsDNS1123Label(c.JobNamespace); len(errs) > 0 {
		return &KeyError{Field: "jobNamespace", Problem: fmt.Sprintf("%q is not a namespace name: %s", c.JobNamespace, strings.Join(errs, "; ")),
			Fix: "use a lower-case DNS label such as " + DefaultLocalModelJobNamespace}
	}
	if c.FSGroup != nil && *c.FSGroup < 0 {
		return &KeyError{Field: "fsGroup", Problem: fmt.Sprintf("%d is negative", *c.FSGroup),
			Fix: "use a non-negative group ID, or remove the field"}
	}
	if c.JobTTLSecondsAfterFinished < 0 {
		return &KeyError{Field: "jobTTLSecondsAfterFinished", Problem: fmt.Sprintf("%d is negative", c.JobTTLSecondsAfterFinished),
			Fix: "use zero (delete at once) or a positive number of seconds"}
	}
	if c.ReconcilationFrequencyInSecs <= 0 || c.ReconcilationFrequencyInSecs > maxDurationSeconds {
		return &KeyError{Field: "reconcilationFrequencyInSecs", Problem: fmt.Sprintf("%d is not a usable number of seconds", c.ReconcilationFrequencyInSecs),
			Fix: fmt.Sprintf("use a positive number of seconds, such as %d", DefaultReconcilationFrequencyInSecs)}
	}
	return nil
}
