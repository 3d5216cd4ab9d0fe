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
// KEY`, blank lines and # comments ignored.
func parseVerdicts(data []byte, out map[string]stored) error {
	for n, f := range variant.Records(data) {
		if len(f) != 3 || Verdict(f[1]) != Killed && Verdict(f[1]) != Survived {
			return fmt.Errorf("%w: line %d: want `ID killed|survived KEY`", ErrBadVerdicts, n)
		}
		out[f[0]] = stored{Verdict: Verdict(f[1]), Key: f[2]}
	}
	return nil
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
		fmt.Fprintf(&b, "%s %s %s\n", id, entries[id].Verdict, entries[id].Key)
	}
	return variant.WriteFile(name, []byte(b.String()))
}
