// Package archtest holds the architecture test: the imports each layer of
// fsmserve must never make. It has no code of its own.
package archtest
