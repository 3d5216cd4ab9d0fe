package scripttest

// This file lets the course tooling's shared builds (drill check, drill
// mutate) reach the runner a script starts: testscript gives every command
// an environment of its own, so the variable that switches a variant of
// the mechanism on must be passed on by hand, or a script would test the
// unswitched code. The harness passes on every FENCELAB_ variable, so it
// needs to know nothing of the tooling's names.

import (
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// envPrefix starts the name of every variable the course's own tools set
// for a test binary.
const envPrefix = "FENCELAB_"

// passSwitch copies every FENCELAB_ variable of the test process into a
// script's environment.
func passSwitch(env *testscript.Env) error {
	for _, kv := range os.Environ() {
		if name, value, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(name, envPrefix) {
			env.Setenv(name, value)
		}
	}
	return nil
}
