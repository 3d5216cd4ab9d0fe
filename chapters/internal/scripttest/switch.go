package scripttest

// This file lets the shared builds of drill check and drill mutate reach
// the runner: testscript starts every command with an environment of its
// own, so the variable that switches a variant on must be passed on by
// hand, or a script would test the unswitched code.

import (
	"os"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fencelab/fencelab/internal/course/schemata"
)

// passSwitch copies schemata.SwitchEnv into a script's environment when
// it is set.
func passSwitch(env *testscript.Env) error {
	if v, ok := os.LookupEnv(schemata.SwitchEnv); ok {
		env.Setenv(schemata.SwitchEnv, v)
	}
	return nil
}
