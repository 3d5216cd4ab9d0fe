package weakening

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestParseExcusesReadsNameAndReason(t *testing.T) {
	t.Parallel()
	got, err := ParseExcuses([]byte("# why these never fail\n\nTestA: it shows the wrong version\nTestB:  kept for the table \n"))
	assert.NilError(t, err)
	assert.DeepEqual(t, got, map[string]string{"TestA": "it shows the wrong version", "TestB": "kept for the table"})
}

func TestParseExcusesRefusesLinesWithoutReasons(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"TestA\n", "TestA:\n", "TestA/sub: r\n", "NotATest: r\n", "TestA: r\nTestA: again\n"} {
		_, err := ParseExcuses([]byte(text))
		assert.Check(t, cmp.ErrorIs(err, ErrMalformed), "ParseExcuses(%q) = %v; want ErrMalformed", text, err)
	}
}
