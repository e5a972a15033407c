package router

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
)

// errEnsembleDecided cancels the calls an Ensemble no longer needs.
var errEnsembleDecided = errors.New("the ensemble already has its answer")

type ensembleResult struct {
	index int
	rep   reply
	err   error
}

// runEnsemble runs every step in parallel on the same input and merges the
// responses, which must be JSON objects, into {"<step name or index>": ...}.
// Walking the steps in order, the first Hard step with a non-2xx status
// decides the answer with its own body and status; any error is a failure.
//
// Unlike KServe, returning early never strands a goroutine: results go to a
// channel with room for every step, the calls still running are cancelled,
// and the node waits for all of them before it returns.
func (g *graphRouter) runEnsemble(ctx context.Context, ex *exchange, n *planNode, input []byte) (reply, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	results := make(chan ensembleResult, len(n.steps))
	var wg sync.WaitGroup
	for i, s := range n.steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := g.runStep(ctx, ex, s, input, false)
			if err == nil {
				err = checkObject(rep.body, s)
			}
			results <- ensembleResult{index: i, rep: rep, err: err}
		}()
	}
	defer func() {
		cancel(errEnsembleDecided)
		wg.Wait()
	}()
	return collectEnsemble(n, results)
}

// collectEnsemble applies the ensemble's rules as results arrive, deciding as
// soon as the outcome is certain.
func collectEnsemble(n *planNode, results <-chan ensembleResult) (reply, error) {
	got := make([]*reply, len(n.steps))
	next := 0
	for range n.steps {
		r := <-results
		if r.err != nil {
			return reply{}, r.err
		}
		got[r.index] = &r.rep
		for next < len(got) && got[next] != nil {
			if n.steps[next].hard && !isSuccess(got[next].status) {
				return *got[next], nil
			}
			next++
		}
	}
	return reply{status: http.StatusOK, body: mergeEnsemble(n, got)}, nil
}

// checkObject enforces what KServe gets by unmarshalling into a map: the
// response is a JSON object (or null).
func checkObject(body []byte, s *planStep) error {
	trimmed := bytes.TrimSpace(body)
	if bytes.Equal(trimmed, []byte("null")) || (len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed)) {
		return nil
	}
	return failf(http.StatusInternalServerError, "the response of %s is not a JSON object", s.desc)
}

// mergeEnsemble writes the responses, already validated, under their keys in
// step order without decoding them again.
func mergeEnsemble(n *planNode, got []*reply) []byte {
	size := 2
	for i, s := range n.steps {
		size += len(s.ensembleKey) + len(got[i].body) + 2
	}
	out := make([]byte, 0, size)
	out = append(out, '{')
	first := true
	for i, s := range n.steps {
		if s.shadowed {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, s.ensembleKey...)
		out = append(out, ':')
		out = append(out, bytes.TrimSpace(got[i].body)...)
	}
	return append(out, '}')
}
