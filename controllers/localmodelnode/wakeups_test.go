package localmodelnode

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	clocktesting "k8s.io/utils/clock/testing"
)

func TestWakeupsFireOnTheAgentsClock(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	w := newWakeups(clk)
	defer w.close()
	w.at(Request{Model: "a"}, clk.Now().Add(10*time.Second))
	w.at(Request{Model: "a"}, clk.Now().Add(30*time.Second)) // later: the earlier timer stays
	clk.Step(9 * time.Second)
	select {
	case e := <-w.events:
		t.Fatalf("woke %v before its time", e.Object)
	case <-time.After(100 * time.Millisecond):
	}
	clk.Step(time.Second)
	select {
	case e := <-w.events:
		assert.Equal(t, Request{Model: "a"}, e.Object)
	case <-time.After(5 * time.Second):
		t.Fatal("no wake-up after the clock passed it")
	}
	assert.False(t, clk.HasWaiters(), "the later request did not add a second timer")
	w.at(Request{Model: "b"}, clk.Now().Add(-time.Second))
	select {
	case e := <-w.events:
		assert.Equal(t, Request{Model: "b"}, e.Object, "a time already passed wakes at once")
	case <-time.After(5 * time.Second):
		t.Fatal("no wake-up for a time already passed")
	}
}
