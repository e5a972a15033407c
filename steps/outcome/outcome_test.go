package outcome

import (
	"errors"
	"testing"
	"time"
)

func TestThenKeepsTheWorseStatusAndAddsTheRest(t *testing.T) {
	boom := errors.New("conflict")
	cases := []struct {
		name       string
		a, b       Outcome
		wantStatus Status
		wantReason string
		changed    bool
		requeue    time.Duration
		err        bool
	}{
		{"done then done", OK(false), OK(true), Done, "", true, 0, false},
		{"waiting beats done", OK(true), Wait("ChildNotOwned", "x"), Waiting, "ChildNotOwned", true, 0, false},
		{"failed beats waiting", Wait("A", ""), Fail("B", ""), Failed, "B", false, 0, false},
		{"the first reason stays on a tie", Fail("A", ""), Fail("B", ""), Failed, "A", false, 0, false},
		{"the sooner requeue wins", OK(false).After(time.Minute), OK(false).After(time.Second), Done, "", false, time.Second, false},
		{"a requeue is kept when the other has none", OK(false), OK(false).After(time.Minute), Done, "", false, time.Minute, false},
		{"errors add up", Error(boom), OK(true), Done, "", true, 0, true},
	}
	for _, c := range cases {
		got := c.a.Then(c.b)
		if got.Status != c.wantStatus || got.Reason != c.wantReason || got.Changed != c.changed || got.RequeueAfter != c.requeue || (got.Err != nil) != c.err {
			t.Errorf("%s: got %+v", c.name, got)
		}
	}
}

func TestSucceeded(t *testing.T) {
	if !OK(true).Succeeded() || Wait("A", "").Succeeded() || Error(errors.New("x")).Succeeded() {
		t.Fatal("only a done step without error succeeded")
	}
	if Error(nil).Err != nil || !Error(nil).Succeeded() {
		t.Fatal("Error(nil) is a plain success")
	}
}
