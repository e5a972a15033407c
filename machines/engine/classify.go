package engine

// FirstOf returns the trigger of the first condition that holds, and
// whether one did: the common shape of a Classify branch that picks between
// two ways out of a state.
func FirstOf[T ~string](c1 bool, t1 T, c2 bool, t2 T) (T, bool) {
	switch {
	case c1:
		return t1, true
	case c2:
		return t2, true
	}
	var none T
	return none, false
}
