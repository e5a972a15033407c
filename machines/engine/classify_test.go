package engine

import "testing"

func TestFirstOfPicksTheFirstConditionThatHolds(t *testing.T) {
	type trig string
	cases := []struct {
		c1, c2 bool
		want   trig
		ok     bool
	}{{true, true, "a", true}, {false, true, "b", true}, {true, false, "a", true}, {false, false, "", false}}
	for _, c := range cases {
		got, ok := FirstOf(c.c1, trig("a"), c.c2, trig("b"))
		if got != c.want || ok != c.ok {
			t.Errorf("FirstOf(%v, a, %v, b) = %q, %v; want %q, %v", c.c1, c.c2, got, ok, c.want, c.ok)
		}
	}
}
