package mutate

// This file computes the key a verdict is stored under (see verdicts.go).
// A verdict holds while nothing it rests on changed:
//
//   - the mutant itself and the source of the declaration it mutates (a
//     change elsewhere in the mechanism does not re-judge it: the issue
//     of a maintainer is paying for what changed, and --sample re-judges
//     reused verdicts at random to keep this honest);
//   - the test side of every judge that can kill it: the judge's own Go
//     files and testdata, and those of the helpers, the script harness and
//     the chapter packages it uses. A package judged by its own tests (the
//     frame, the worker, drill) is the one exception: for its own mutants
//     its code is left out of the test side, as a mechanism's is, so that
//     a change to one of its functions re-judges that function's mutants
//     and not all of them;
//   - its excuse, if it has one;
//   - the module's requirements (go.mod and go.sum).

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// keyVersion changes when the engine judges differently, so that no
// verdict of an older engine is reused.
const keyVersion = "fencelab-mutate-1"

// testSides sets each judge's testSide, and ownSide for a judge of its
// own package.
func (l *listing) testSides(judges []*judge) error {
	for _, j := range judges {
		own := l.rel(j.ImportPath)
		var err error
		if j.testSide, err = l.testSideHash(j, true); err != nil {
			return err
		}
		if j.uses[own] != 0 {
			j.own = own
			if j.ownSide, err = l.testSideHash(j, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// testSideHash hashes the files testSideFiles lists.
func (l *listing) testSideHash(j *judge, ownCode bool) (string, error) {
	files, err := l.testSideFiles(j, ownCode)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if err := variant.HashFiles(h, l.root, files); err != nil {
		return "", fmt.Errorf("mutate: the test side of %s: %w", j.Name, err)
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// testSideFiles lists, relative to the root and sorted, the files j's test
// binary is built from on the test side: with the code (not the tests) of
// j's own package only if ownCode.
func (l *listing) testSideFiles(j *judge, ownCode bool) ([]string, error) {
	p := l.byPath[j.ImportPath]
	own := l.rel(j.ImportPath)
	var files []string
	add := func(rel string, lp *listedPackage, tests bool) error {
		var names []string
		if !tests || ownCode {
			names = lp.GoFiles
		}
		if tests {
			names = append(append(append([]string(nil), names...), lp.TestGoFiles...), lp.XTestGoFiles...)
		}
		for _, n := range names {
			files = append(files, rel+"/"+n)
		}
		data, err := variant.ListFiles(l.root, rel+"/testdata", nil, nil)
		if err != nil {
			return fmt.Errorf("mutate: %w", err)
		}
		files = append(files, data...)
		return nil
	}
	if err := add(own, p, true); err != nil {
		return nil, err
	}
	for rel := range l.closure(p.testImports(), func(string) bool { return true }) {
		if rel == own || l.layer(rel) != Helper && !strings.HasPrefix(rel, "chapters/") {
			continue
		}
		if err := add(rel, l.byPath[l.module+"/"+rel], false); err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

// moduleSum hashes go.mod and go.sum.
func moduleSum(root string) (string, error) {
	h := sha256.New()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil && !os.IsNotExist(err) {
			return "", fmt.Errorf("mutate: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// key is the key m's verdict is stored under, given the judges that use
// its package, its excuse (zero if none) and the module's sum.
func key(m *Mutant, judges []*judge, e Excuse, module string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00", keyVersion, module, m.ID, m.original, m.replacement, m.declSum)
	for _, j := range judges {
		if j.uses[m.Package] == 0 {
			continue
		}
		side := j.testSide
		if j.ownSide != "" && m.Package == j.own {
			side = j.ownSide
		}
		fmt.Fprintf(h, "judge %s %d %s %s\x00", j.Name, j.uses[m.Package], side, j.tests)
	}
	if e.ID != "" {
		fmt.Fprintf(h, "excuse %s %s\x00", e.Kind, e.Reason)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}
