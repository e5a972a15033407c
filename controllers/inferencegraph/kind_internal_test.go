package inferencegraph

import "testing"

// TestEveryActivityHasAStep fails when a state names a step the controller
// does not supply (the state would silently do nothing), or the other way round.
func TestEveryActivityHasAStep(t *testing.T) {
	r := &Reconciler{}
	if err := r.lifecycle().Kind.Validate(); err != nil {
		t.Fatal(err)
	}
}
