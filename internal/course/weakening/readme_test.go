package weakening

import (
	"testing"

	"gotest.tools/v3/assert"
)

func TestTryNamesFindsEveryTryCommand(t *testing.T) {
	t.Parallel()
	readme := "Run it:\n\n    go run ./tools/drill try complete-ignores-token\n\n" +
		"or `go run ./tools/drill try mint-outside-transaction` inline; " +
		"`go run ./tools/drill show other` is not a try line.\n"
	assert.DeepEqual(t, TryNames([]byte(readme)), []string{"complete-ignores-token", "mint-outside-transaction"})
}
