// Package lifecycle is the one reconcile skeleton every fsmserve kind runs
// (Reconciler): get, read-your-writes guard, finalizer, observe, classify
// once, fire, run the state's step, derive status, persist once with
// optimistic locking, then publish Events, metrics and spans, then remove the
// finalizer. A kind supplies only what is its own (Kind): its machine, its
// observe function, its steps by activity name and one status function.
// Publishing happens after the status write succeeded, never before, so a
// failed write publishes nothing and the retry tells the story once.
package lifecycle
