package router

import (
	"context"
	"net/http"
)

// runSplitter draws a point in [0,100) and runs the step whose cumulative
// weight first exceeds it; the step's body and status are returned as they
// are. When the weights add up to less than the point, nothing is selected.
func (g *graphRouter) runSplitter(ctx context.Context, ex *exchange, n *planNode, input []byte, last bool) (reply, error) {
	point := int64(g.intn(100))
	var end int64
	for _, s := range n.steps {
		end += s.weight
		if point < end {
			return g.runStep(ctx, ex, s, input, last)
		}
	}
	return reply{}, failf(http.StatusInternalServerError, "no route was selected by the splitter")
}
