package exercise

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

// TestABuildThatCouldNotRunIsNotCalledACompileError: a full disk or a
// dead linker is not the learner's compile error, and is not told as one.
func TestABuildThatCouldNotRunIsNotCalledACompileError(t *testing.T) {
	reason, next := buildFailure("internal/mailbox/claim.go:12:3: undefined: x")
	assert.Check(t, reason == "the chapter does not build" && next == "fix the compile error above, save, and verify again", "%s / %s", reason, next)
	reason, next = buildFailure("go: writing stat cache: write /tmp/go-build/x: no space left on device")
	assert.Check(t, reason == "the go command ran out of disk space building the chapter (no space left on device)", reason)
	assert.Check(t, !strings.Contains(next, "compile error"), next)
	reason, _ = buildFailure("/usr/local/go/pkg/tool/linux_amd64/link: signal: killed")
	assert.Check(t, reason == "the go command could not build the chapter: /usr/local/go/pkg/tool/linux_amd64/link: signal: killed", reason)
}
