// Package engine runs fsmserve's lifecycle machines over github.com/qmuntal/stateless.
//
// A lifecycle declares its states, triggers and transitions once (a Spec with a
// Define function) and a pure Classify function from what the controller
// observed to the trigger that observation implies. Each reconcile builds a
// fresh Machine whose state lives in the object's status (external storage) and
// calls Run: observe -> classify -> fire, at most MaxHops times, running the
// current state's activity (an idempotent step) once per state and feeding its
// outcome back into the observation. Transitions are collected in a journal
// that the caller publishes as Events, spans and metrics only after the status
// write succeeded.
//
// The package is pure: no Kubernetes client, no clock, no I/O.
package engine
