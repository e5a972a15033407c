// Package servingruntime is admission for ServingRuntimes and
// ClusterServingRuntimes: KServe's validating webhook, as pure rules
// (ValidateRuntime) and controller-runtime adapters that list the other
// runtimes in scope through a client.
package servingruntime
