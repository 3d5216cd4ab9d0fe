package exercise

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestABuildThatCouldNotRunIsNotCalledACompileError: a full disk or a
// dead linker is not the learner's compile error, and is not told as one:
// the reason quotes the go command's own line, even when it comes after
// the first lines of the build's output, and the next step never says
// "fix the compile error". A compile error still is told as one.
func TestABuildThatCouldNotRunIsNotCalledACompileError(t *testing.T) {
	const linkFull = "/usr/local/go/pkg/tool/linux_amd64/link: write $WORK/b001/exe/a.out: no space left on device"
	for _, tc := range []struct {
		name    string
		what    string
		out     Outcome
		reason  string
		compile bool // the next step is "fix the compile error"
	}{
		{"compile-error", "the chapter", Outcome{Message: "internal/mailbox/claim.go:12:3: undefined: x"},
			"the chapter does not build", true},
		{"test-compile-error", "your test", Outcome{Message: "chapters/ch01/claim_test.go:7:2: undefined: y"},
			"your test does not build", true},
		{"cache-full", "the chapter", Outcome{Message: "go: writing stat cache: write /tmp/go-build/x: no space left on device"},
			"the go command ran out of disk space building the chapter: go: writing stat cache: write /tmp/go-build/x: no space left on device", false},
		{"linker-full", "your test", Outcome{Message: "# chapters/ch01.test\n" + linkFull},
			"the go command ran out of disk space building your test: " + linkFull, false},
		{"linker-full-after-the-first-lines", "the chapter", Outcome{Message: "# chapters/ch01.test", Log: strings.Repeat("ok\n", 20) + linkFull + "\n"},
			"the go command ran out of disk space building the chapter: " + linkFull, false},
		{"linker-killed", "the chapter", Outcome{Message: "/usr/local/go/pkg/tool/linux_amd64/link: signal: killed"},
			"the go command could not build the chapter: /usr/local/go/pkg/tool/linux_amd64/link: signal: killed", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reason, next := buildFailure(tc.what, &tc.out)
			assert.Equal(t, reason, tc.reason, "buildFailure(%q) reason", tc.out.Message)
			if tc.compile {
				assert.Check(t, cmp.Contains(next, "fix the compile error"), "buildFailure(%q) next = %q; want the compile error named", tc.out.Message, next)
			} else {
				assert.Check(t, !strings.Contains(next, "fix the compile error"), "buildFailure(%q) next = %q; want no compile error to fix: there is none", tc.out.Message, next)
			}
		})
	}
}
