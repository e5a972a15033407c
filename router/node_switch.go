package router

import (
	"context"
	"net/http"

	"github.com/tidwall/gjson"
)

// runSwitch runs the first step whose condition (a gjson path) exists in the
// node input. Input that is not JSON, or no matching condition, is a 404.
func (g *graphRouter) runSwitch(ctx context.Context, ex *exchange, n *planNode, input []byte, last bool) (reply, error) {
	if gjson.ValidBytes(input) {
		for _, s := range n.steps {
			if gjson.GetBytes(input, s.condition).Exists() {
				return g.runStep(ctx, ex, s, input, last)
			}
		}
	}
	return reply{}, failf(http.StatusNotFound, "None of the routes matched with the switch condition")
}
