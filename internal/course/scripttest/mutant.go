package scripttest

// This file lets drill mutate reach the runner: testscript starts every
// command with an environment of its own, so the variable that switches a
// mutant on in a schemata build must be passed on by hand, or a script
// would test the unmutated code.

import (
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// MutantEnv is the variable drill mutate switches a mutant on with; it
// equals mutate.SwitchEnv (a test in package mutate keeps them equal).
const MutantEnv = "FENCELAB_MUTANT"

// passMutant copies MutantEnv into a script's environment when it is set.
func passMutant(env *testscript.Env) error {
	if v, ok := os.LookupEnv(MutantEnv); ok {
		env.Setenv(MutantEnv, v)
	}
	return nil
}
