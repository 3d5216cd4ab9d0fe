// Package variant runs a module's chapter tests against variants of its
// mechanism: the code as it is, the code with one file replaced through
// the go command's -overlay flag (a weakening, a mutant, a broken copy a
// learner's test is graded on), or a shared build that carries many
// variants at once behind a switch. It is the one layer under the course's
// three engines (check, mutate, exercise):
//
//   - runner.go: the Runner, its scratch directory and the go command;
//   - overlay.go: the overlay file and the names compiler messages use;
//   - switch.go: the switch file a shared build adds to a package;
//   - shared.go: building chapters once with many variants inside;
//   - gotest.go: go test over packages, and test binaries run directly;
//   - events.go: the test2json stream folded into per-test results;
//   - excerpt.go: the part of a failure a learner reads first;
//   - live.go: the stream shown to a person as it arrives;
//   - pool.go: the one bounded pool, and its default size.
//
// Every file the Runner writes lives in its scratch directory, and so do
// the temporary files of the go commands and test binaries it starts (it
// points TMPDIR and GOTMPDIR there): Close removes all of it, whether the
// run ended, failed or was interrupted.
package variant
