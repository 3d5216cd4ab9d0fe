//go:build linux

package cli

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

// TestStatIsReadFromTheEndOfTheName: a process's state and start time
// are found whatever its name holds (spaces, parentheses), and a line
// too short to hold a start time is an error, not a guess.
func TestStatIsReadFromTheEndOfTheName(t *testing.T) {
	tail := func(n int) string {
		f := make([]string, n)
		for i := range f {
			f[i] = "f" + string(rune('a'+i))
		}
		return strings.Join(f, " ")
	}
	for _, c := range []struct {
		name, line, state, start string
	}{
		{"plain", "42 (fencelab) S " + tail(19) + " 9", "S", "fs"},
		{"odd", "42 (a) b) (c) Z " + tail(19), "Z", "fs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			state, start, err := parseStat([]byte(c.line))
			assert.NilError(t, err)
			assert.Equal(t, state, c.state)
			assert.Equal(t, start, c.start)
		})
	}
	_, _, err := parseStat([]byte("42 (fencelab) S " + tail(18)))
	assert.ErrorContains(t, err, "19 fields")
}
