package mutate

// This file keeps verdicts between runs: each mutant's verdict (killed or
// survived, before excuses) is stored under its key (key.go) in a
// committed file per package, and reused while the key holds. A run
// re-judges only the mutants whose key changed; --full re-judges every
// one; --sample N re-judges N reused verdicts chosen at random, and a
// sampled verdict that differs from the stored one is a problem. The
// files are sorted and hold no timings, so a diff shows exactly which
// verdicts a change touched.

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// VerdictDir, relative to the module root, holds the verdict files: one
// per mutated package, named like its excuse file (mailbox.txt).
const VerdictDir = "chapters/mutant-verdicts"

// stored is one verdict of a verdict file.
type stored struct {
	Verdict Verdict
	Key     string
	// Killer is, for a killed mutant, the judge and the test that failed
	// first ("judge:TestName", with "/script" for a script), so a reused
	// verdict names its killing test as a fresh one does; "" if unknown
	// (a timeout, a crash, or a verdict stored before killers were kept).
	Killer string
}

// ErrBadVerdicts is wrapped by every malformed line of a verdict file.
var ErrBadVerdicts = errors.New("mutate: malformed verdict file")

// verdictFile is the verdict file of the package folder pkg under root.
func verdictFile(root, pkg string) string {
	return filepath.Join(root, filepath.FromSlash(VerdictDir), path.Base(pkg)+".txt")
}

// readVerdicts reads the stored verdicts of the package folders pkgs. A
// package without a file has none; a line that does not parse is an error.
func readVerdicts(root string, pkgs []string) (map[string]stored, error) {
	out := map[string]stored{}
	for _, pkg := range pkgs {
		data, err := os.ReadFile(verdictFile(root, pkg))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("mutate: %w", err)
		}
		if err := parseVerdicts(data, out); err != nil {
			return nil, fmt.Errorf("%s/%s.txt: %w", VerdictDir, path.Base(pkg), err)
		}
	}
	return out, nil
}

// parseVerdicts adds the lines of one verdict file to out: `ID VERDICT
// KEY [KILLER]`, blank lines and # comments ignored.
func parseVerdicts(data []byte, out map[string]stored) error {
	for n, f := range variant.Records(data) {
		ok := len(f) == 3 && (Verdict(f[1]) == Killed || Verdict(f[1]) == Survived) ||
			len(f) == 4 && Verdict(f[1]) == Killed
		if !ok {
			return fmt.Errorf("%w: line %d: want `ID killed KEY [JUDGE:TEST]` or `ID survived KEY`", ErrBadVerdicts, n)
		}
		s := stored{Verdict: Verdict(f[1]), Key: f[2]}
		if len(f) == 4 {
			s.Killer = f[3]
		}
		out[f[0]] = s
	}
	return nil
}

// killerToken is the stored form of a judgement's killed_by ("judge:
// TestName/sub: why"): "judge:TestName", with "/script" for a script; ""
// for a kill outside any test (a timeout, a crash).
func killerToken(killedBy string) string {
	judge, by, ok := strings.Cut(killedBy, ": ")
	if !ok {
		return ""
	}
	k, ok := killerOf(judge, by)
	if !ok || strings.ContainsAny(judge+k.test+k.script, " \t\n") {
		return ""
	}
	tok := k.judge + ":" + k.test
	if k.script != "" {
		tok += "/" + k.script
	}
	return tok
}

// killedBy is a stored killer as a result's killed_by: "judge: TestName".
func (s stored) killedBy() string {
	judge, test, ok := strings.Cut(s.Killer, ":")
	if !ok {
		return ""
	}
	return judge + ": " + test
}

// killer is the stored killer as a test to run alone: false when none
// was stored.
func (s stored) killer() (killer, bool) {
	judge, name, ok := strings.Cut(s.Killer, ":")
	if !ok {
		return killer{}, false
	}
	test, script, _ := strings.Cut(name, "/")
	return killer{judge: judge, test: test, script: script}, true
}

// writeVerdicts writes the verdict file of package folder pkg: every
// entry, sorted by ID. A package with no entry has its file removed.
func writeVerdicts(root, pkg string, entries map[string]stored) error {
	name := verdictFile(root, pkg)
	if len(entries) == 0 {
		if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("mutate: %w", err)
		}
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# The verdicts of drill mutate on the mutants of %s, before excuses: each one\n", pkg)
	b.WriteString("# is reused while its key (the mutant, its function's source, the test side of\n")
	b.WriteString("# the chapters that judge it, its excuse) holds. Written by drill mutate; do not edit.\n")
	for _, id := range sortedKeys(entries) {
		e := entries[id]
		if e.Verdict == Killed && e.Killer != "" {
			fmt.Fprintf(&b, "%s %s %s %s\n", id, e.Verdict, e.Key, e.Killer)
			continue
		}
		fmt.Fprintf(&b, "%s %s %s\n", id, e.Verdict, e.Key)
	}
	return variant.WriteFile(name, []byte(b.String()))
}
