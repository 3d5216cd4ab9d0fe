package variant

import (
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

// TestRecordsSkipCommentsAndKeepLineNumbers: comments and blank lines are
// not records, and each record carries the line it stands on, so an error
// can name it; a last line without a newline is read too.
func TestRecordsSkipCommentsAndKeepLineNumbers(t *testing.T) {
	data := []byte("# a comment\n\n  k1 name caught TestA\n   # indented comment\nk2 other killed\nlast line")
	var got []string
	for n, f := range Records(data) {
		got = append(got, fmt.Sprintf("%d %s", n, strings.Join(f, "|")))
	}
	assert.DeepEqual(t, got, []string{"3 k1|name|caught|TestA", "5 k2|other|killed", "6 last|line"})
}
