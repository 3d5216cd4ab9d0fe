package cli_test

import (
	"errors"
	"io"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// errRefused is a refusal a mechanism would name.
var errRefused = errors.New("probe: lease held")

// reasonOf recognises errRefused as the refusal "lease_held".
func reasonOf(err error) (string, bool) {
	if errors.Is(err, errRefused) {
		return "lease_held", true
	}
	return "", false
}

// TestOutcomeOfTellsSuccessRefusalAndFailureApart: a call that returned
// nil succeeded; one the mechanism refused is reported refused, with the
// reason, and the experiment goes on; any other error is no answer at
// all, and is handed back so that it ends the experiment.
func TestOutcomeOfTellsSuccessRefusalAndFailureApart(t *testing.T) {
	out, err := cli.OutcomeOf("claimed", nil, reasonOf)
	assert.NilError(t, err)
	assert.Equal(t, out, cli.Outcome{Result: "claimed"})

	out, err = cli.OutcomeOf("claimed", errRefused, reasonOf)
	assert.NilError(t, err, "a refusal is an answer, not a failure")
	assert.Equal(t, out, cli.Outcome{Result: cli.Refused, Reason: "lease_held"})

	out, err = cli.OutcomeOf("claimed", io.ErrUnexpectedEOF, reasonOf)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "a failure that is no refusal must end the experiment, not be recorded as an answer")
	assert.Equal(t, out, cli.Outcome{})
}
