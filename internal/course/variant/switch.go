package variant

// This file is the switch of a shared build: one build of a chapter that
// carries many variants of the mechanism at once (mutants, weakenings),
// each behind a switch read from the environment, so the build is paid
// once instead of once per variant. A package with switched code gets one
// extra file, the switch file, added through the overlay; the working
// tree never holds it.

import "fmt"

// SwitchEnv is the environment variable that picks the variant a process
// runs: its value is the variant's number, 0 or unset for none. Test
// scripts must pass it on to the processes they start; the chapters'
// harness (chapters/internal/scripttest) passes on every FENCELAB_
// variable.
const SwitchEnv = "FENCELAB_MUTANT"

// SwitchFileName is the name the switch file takes in each package.
const SwitchFileName = "zz_fencelab_switch.go"

// Imports are the packages the switch file imports; a type-checker of a
// switched package needs them.
var Imports = []string{"os", "strconv"}

// switchFile is the switch file's source. Its names start with _fencelab
// so they cannot collide with the package's own.
const switchFile = `package %s

// Added by the course tooling to a shared build; never part of the tree.

import (
	"os"
	"strconv"
)

var _fencelabActive = func() int {
	n, _ := strconv.Atoi(os.Getenv(%q))
	return n
}()

func _fencelabOn(id int) bool { return id == _fencelabActive }

func _fencelabOff(ids ...int) bool {
	for _, id := range ids {
		if id == _fencelabActive {
			return false
		}
	}
	return true
}

func _fencelabPick[T any](orig T, ids []int, alts []T) T {
	for i, id := range ids {
		if id == _fencelabActive {
			return alts[i]
		}
	}
	return orig
}
`

// SwitchSource returns the switch file for the package named name. Code in
// the package asks _fencelabOn(n) whether variant n is running,
// _fencelabOff(n...) whether none of them is, and _fencelabPick(orig, ns,
// alts) for the value variant ns[i] puts in orig's place.
func SwitchSource(name string) string { return fmt.Sprintf(switchFile, name, SwitchEnv) }
