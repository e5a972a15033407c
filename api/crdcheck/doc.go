// Package crdcheck holds tests of the generated CRDs in config/crd/bases:
// they load each CRD as the API server does (structural schema, pruning,
// defaulting, OpenAPI and CEL validation, printer columns) and run every
// sample manifest of the api packages through it.
package crdcheck
