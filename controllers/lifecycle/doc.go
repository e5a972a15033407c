// Package lifecycle is the part of every fsmserve reconcile that is the same for
// all kinds: turning a machine's journal into status, deciding the tracing
// episode, and publishing Events, metrics and spans after the status write
// succeeded (never before, so a failed write publishes nothing and the retry
// tells the story once).
package lifecycle
