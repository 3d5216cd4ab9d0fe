package fencinglab

// This file holds the one way both workers call the destination, so that A
// and B treat the gate's answers, and its one kind of warning, alike.

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/gate"
)

// callDestination sends req through g on behalf of worker who. An error
// from the gate means nothing committed there, and it ends the case. The
// one exception is gate.ErrNotLogged: the answer stands and only its line
// in the arrivals log is missing, so the call is reported as answered and
// the missing line goes to warn as one line, never retried.
func callDestination(ctx context.Context, g *gate.Gate, req gate.Request, who string, warn io.Writer) (gate.Outcome, error) {
	out, err := g.Apply(ctx, req)
	if errors.Is(err, gate.ErrNotLogged) {
		fmt.Fprintf(warn, "fencelab fencing: warning: worker %s's destination call was answered %s, but %v\n", who, out.Result, err)
		return out, nil
	}
	if err != nil {
		return gate.Outcome{}, fmt.Errorf("worker %s's destination call: %w", who, err)
	}
	return out, nil
}
