package router

import (
	"context"
	"net/http"

	"github.com/tidwall/gjson"
)

// runSequence runs the steps in order. Each step gets the node input, or the
// previous step's response when its data is $response. A step's condition is
// checked against the previous response: if the path does not exist the
// sequence stops there and returns that response with 200. A failed Hard step
// stops the sequence with its own body and status.
func (g *graphRouter) runSequence(ctx context.Context, ex *exchange, n *planNode, input []byte, last bool) (reply, error) {
	var prev reply
	for i, s := range n.steps {
		stepInput := input
		if s.fromResponse && i > 0 {
			stepInput = prev.body
		}
		if s.mapPredictions {
			stepInput = mapPredictionsToInstances(stepInput)
		}
		if s.condition != "" {
			if !gjson.ValidBytes(prev.body) {
				return reply{}, failf(http.StatusInternalServerError, "invalid response")
			}
			if !gjson.GetBytes(prev.body, s.condition).Exists() {
				return reply{status: http.StatusOK, body: prev.body}, nil
			}
		}
		rep, err := g.runStep(ctx, ex, s, stepInput, last && i == len(n.steps)-1)
		if err != nil {
			return reply{}, err
		}
		prev = rep
		if s.hard && !isSuccess(rep.status) {
			return rep, nil
		}
	}
	return prev, nil
}

// mapPredictionsToInstances turns a previous model's output into the next
// model's input: a JSON object whose "predictions" is a non-empty array
// becomes {"instances": <predictions>}. Anything else passes unchanged, as in
// KServe (which also leaves the input alone when "instances" is not an array).
func mapPredictionsToInstances(in []byte) []byte {
	if !gjson.ValidBytes(in) {
		return in
	}
	doc := gjson.ParseBytes(in)
	if !doc.IsObject() {
		return in
	}
	predictions := doc.Get("predictions")
	if !predictions.IsArray() || predictions.Get("#").Int() == 0 {
		return in
	}
	if instances := doc.Get("instances"); instances.Exists() && !instances.IsArray() && instances.Type != gjson.Null {
		return in
	}
	out := make([]byte, 0, len(predictions.Raw)+len(`{"instances":}`))
	out = append(out, `{"instances":`...)
	out = append(out, predictions.Raw...)
	return append(out, '}')
}
