package check

// This file keeps the graded check's verdicts between runs, as drill
// mutate keeps its own. A chapter's verdicts hold while nothing its tests
// and scripts are built from has changed: the chapter's folder, the
// mechanism and runner under internal/, the fencelab binaries, the
// chapters' shared helpers, the check engine itself, the module's
// requirements and the Go release. Each weakening's verdict is stored
// under a key made of that and its own catalog file, in
// chapters/weakening-verdicts/<chapter>.txt, beside the chapter's list of
// tests. Only caught verdicts are kept: anything else fails the check and
// is judged again on the next run. --update writes the files (make check
// does; a plain drill check leaves the tree as it is); --full ignores
// them; --sample N judges N reused verdicts again at random, and one that
// is not caught any more fails the check like any other.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// VerdictDir, relative to the module root, holds one verdict file per
// chapter, named after the chapter folder.
const VerdictDir = "chapters/weakening-verdicts"

// carryVersion changes when the check judges differently, so that no
// verdict of an older engine is reused.
const carryVersion = "fencelab-check-1"

// Reuse says how stored verdicts are used.
type Reuse struct {
	// Full ignores the stored verdicts: every weakening is judged.
	Full bool
	// Sample is how many reused verdicts to judge again, chosen at random.
	Sample int
	// Seed seeds the sample's choice; 0 picks one (the report says which).
	Seed uint64
	// Update writes every checked chapter's verdicts once the check is
	// done.
	Update bool
}

// SampleReport says what a sample judged again.
type SampleReport struct {
	Seed uint64 `json:"seed"`
	Size int    `json:"size"` // as asked, or every reused verdict if fewer
	// Differ names the sampled weakenings that are not caught any more.
	Differ []string `json:"differ"`
}

// sharedTrees are the folders, relative to the root, every chapter's
// tests and scripts are built from, besides the chapter's own folder.
// Only their code counts (sharedFile): their own tests and texts never
// reach a chapter's binaries. The rest of internal/course (drill's
// command line, mutate, the exercises) reaches neither the binaries nor
// the check's verdicts.
var sharedTrees = []string{"internal", "tools/fencelab", "chapters/internal"}

// sharedFile reports whether a file of a shared tree counts: its tests
// and its texts do not.
func sharedFile(rel string) bool {
	return !strings.HasSuffix(rel, "_test.go") && !strings.HasSuffix(rel, ".md")
}

// notJudgedBy are folders under the shared trees that no verdict rests on.
var notJudgedBy = []string{"internal/course/drill", "internal/course/mutate", "internal/course/exercise"}

// chapterNotJudgedBy are folders of a chapter that its verdicts do not
// rest on: the catalog (each entry is part of its own key) and the
// learner's saved solutions.
var chapterNotJudgedBy = []string{weakening.Dir, "solutions"}

// storedChapter is a chapter's verdict file.
type storedChapter struct {
	key    string              // the chapter's key when the file was written
	tests  []string            // its top-level tests then
	caught map[string]storedOK // weakening name -> its caught verdict
}

// storedOK is one weakening's stored caught verdict.
type storedOK struct {
	key    string
	failed []string
}

// errBadVerdicts is wrapped by every malformed verdict file.
var errBadVerdicts = errors.New("check: malformed verdict file")

// treeSum hashes the files under the shared trees, once per run.
func treeSum(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", carryVersion, runtime.Version())
	var module []string // a module without requirements has no go.sum
	for _, name := range []string{"go.mod", "go.sum"} {
		if _, err := os.Stat(filepath.Join(root, name)); err == nil {
			module = append(module, name)
		}
	}
	if err := variant.HashFiles(h, root, module); err != nil {
		return "", fmt.Errorf("check: %w", err)
	}
	for _, dir := range sharedTrees {
		if err := hashTree(h, root, dir, notJudgedBy, sharedFile); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// chapterKey is chapter ch's key: the shared trees' sum and its folder.
func chapterKey(root, shared string, ch *weakening.Chapter) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "shared %s\n", shared)
	dir := path.Join(weakening.ChaptersDir, ch.Name)
	skip := make([]string, len(chapterNotJudgedBy))
	for i, s := range chapterNotJudgedBy {
		skip[i] = path.Join(dir, s)
	}
	if err := hashTree(h, root, dir, skip, nil); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// weakeningKey is the key w's verdict is stored under in a chapter whose
// key is chapter: the chapter's key and w's catalog file.
func weakeningKey(root, chapter string, w *weakening.Weakening) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "chapter %s\n", chapter)
	if err := variant.HashFiles(h, root, []string{w.Path}); err != nil {
		return "", fmt.Errorf("check: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// hashTree adds every file under dir (relative to root) that keep keeps
// to h, in path order, leaving out the folders in skip.
func hashTree(h io.Writer, root, dir string, skip []string, keep func(rel string) bool) error {
	files, err := variant.ListFiles(root, dir, skip, keep)
	if err == nil {
		err = variant.HashFiles(h, root, files)
	}
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	return nil
}

// verdictPath is chapter's verdict file under root.
func verdictPath(root, chapter string) string {
	return filepath.Join(root, filepath.FromSlash(VerdictDir), chapter+".txt")
}

// readStored reads chapter's verdict file; a chapter without one has
// none stored.
func readStored(root, chapter string) (*storedChapter, error) {
	data, err := os.ReadFile(verdictPath(root, chapter))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	s := &storedChapter{caught: map[string]storedOK{}}
	for n, f := range variant.Records(data) {
		switch {
		case f[0] == "tests" && len(f) >= 2:
			s.key, s.tests = f[1], f[2:]
		case len(f) == 4 && f[2] == string(Caught):
			s.caught[f[1]] = storedOK{key: f[0], failed: strings.Split(f[3], ",")}
		default:
			return nil, fmt.Errorf("%w: %s/%s.txt line %d: want `tests KEY TEST...` or `KEY NAME caught TEST,...`",
				errBadVerdicts, VerdictDir, chapter, n)
		}
	}
	return s, nil
}

// writeStored writes chapter's verdict file: its key and tests, then its
// caught verdicts by name. It holds no timings, so a run that judged
// nothing new writes the same bytes.
func writeStored(root, chapter, key string, tests []string, caught map[string]storedOK) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# The graded check's caught verdicts for %s, reused while their keys hold.\n", chapter)
	fmt.Fprintf(&b, "# Written by drill check; commit it with the change. drill check --full ignores it.\n")
	fmt.Fprintf(&b, "tests %s %s\n", key, strings.Join(tests, " "))
	names := make([]string, 0, len(caught))
	for name := range caught {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := caught[name]
		fmt.Fprintf(&b, "%s %s %s %s\n", c.key, name, Caught, strings.Join(c.failed, ","))
	}
	file := verdictPath(root, chapter)
	if old, err := os.ReadFile(file); err == nil && string(old) == b.String() {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("check: %w", err)
	}
	return nil
}

// carried is what the stored verdicts give a run: per chapter, its key,
// and, where it holds, its tests and the weakenings' reused verdicts.
type carried struct {
	keys    map[string]string // chapter -> its key now
	wkeys   map[string]string // chapter/weakening -> its key now
	tests   map[string][]string
	reused  map[string]Result // chapter/weakening -> its reused verdict
	sampled map[string]bool   // chapter/weakening -> judged again by the sample
	sample  *SampleReport
}

// carry reads the stored verdicts of chapters under root and says which
// hold; with reuse.Full, none is reused (the keys are still computed, to
// write the files afterwards).
func carry(root string, chapters []*weakening.Chapter, reuse Reuse) (*carried, error) {
	c := &carried{keys: map[string]string{}, wkeys: map[string]string{}, tests: map[string][]string{},
		reused: map[string]Result{}, sampled: map[string]bool{}}
	shared, err := treeSum(root)
	if err != nil {
		return nil, err
	}
	for _, ch := range chapters {
		key, err := chapterKey(root, shared, ch)
		if err != nil {
			return nil, err
		}
		c.keys[ch.Name] = key
		for _, w := range ch.Weakenings {
			if c.wkeys[ch.Name+"/"+w.Name], err = weakeningKey(root, key, w); err != nil {
				return nil, err
			}
		}
		if reuse.Full {
			continue
		}
		s, err := readStored(root, ch.Name)
		if err != nil {
			return nil, err
		}
		if s == nil || s.key != key {
			continue
		}
		c.tests[ch.Name] = s.tests
		for _, w := range ch.Weakenings {
			if ok, found := s.caught[w.Name]; found && ok.key == c.wkeys[ch.Name+"/"+w.Name] {
				c.reused[ch.Name+"/"+w.Name] = Result{Chapter: ch.Name, Name: w.Name, Verdict: Caught,
					FailedTests: ok.failed, Tests: w.Tests, Reused: true}
			}
		}
	}
	c.pickSample(reuse)
	return c, nil
}

// pickSample moves reuse.Sample reused verdicts, chosen at random, to
// those judged again.
func (c *carried) pickSample(reuse Reuse) {
	if reuse.Sample <= 0 || reuse.Full {
		return
	}
	ids := make([]string, 0, len(c.reused))
	for id := range c.reused {
		ids = append(ids, id)
	}
	sort.Strings(ids) // map order must not change what a seed picks
	ids, seed := variant.Sample(ids, reuse.Sample, reuse.Seed)
	for _, id := range ids {
		c.sampled[id] = true
		delete(c.reused, id)
	}
	c.sample = &SampleReport{Seed: seed, Size: len(ids), Differ: []string{}}
}

// baselineHolds reports whether chapter ch's stored baseline holds: its
// key is the one stored, so its tests are the ones that passed then.
func (c *carried) baselineHolds(ch *weakening.Chapter) bool {
	_, ok := c.tests[ch.Name]
	return ok
}

// store writes the verdict file of every chapter whose baseline passed
// in rep: its caught verdicts, fresh or reused.
func (c *carried) store(root string, chapters []*weakening.Chapter, rep *Report) error {
	byName := map[string]Result{}
	for _, r := range rep.Weakenings {
		byName[r.Chapter+"/"+r.Name] = r
	}
	for _, b := range rep.Baselines {
		if !b.Passed {
			continue
		}
		caught := map[string]storedOK{}
		for _, ch := range chapters {
			if ch.Name != b.Chapter {
				continue
			}
			for _, w := range ch.Weakenings {
				id := ch.Name + "/" + w.Name
				if r, ok := byName[id]; ok && r.Verdict == Caught {
					caught[w.Name] = storedOK{key: c.wkeys[id], failed: r.FailedTests}
				}
			}
		}
		if err := writeStored(root, b.Chapter, c.keys[b.Chapter], b.Tests, caught); err != nil {
			return err
		}
	}
	return nil
}

// checkSample names every sampled weakening that is not caught any more.
func (c *carried) checkSample(rep *Report) {
	if c.sample == nil {
		return
	}
	for _, r := range rep.Weakenings {
		if c.sampled[r.Chapter+"/"+r.Name] && r.Verdict != Caught {
			c.sample.Differ = append(c.sample.Differ, r.Chapter+"/"+r.Name)
		}
	}
	sort.Strings(c.sample.Differ)
}
