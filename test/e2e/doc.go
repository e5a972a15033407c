// Package e2e drives the local cluster end to end: `fsmserve dev --jaeger`
// as a user runs it, kubectl for real, and Jaeger's query API. Its tests carry
// the e2e build tag and run with `make test-e2e` (part of `make test`).
package e2e
