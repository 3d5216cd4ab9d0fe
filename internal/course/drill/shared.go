package drill

// This file is the graded check's shared build: every weakening that only
// changes function bodies is compiled into one test binary per chapter,
// behind a switch (see weakening.SchemaSource and package schemata), so the
// check pays one build per chapter instead of one per weakening. A
// weakening the shared build cannot carry is graded through its own
// overlay, as before; so is every weakening when the shared build fails.

import (
	"context"
	"fmt"
	goparser "go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/internal/course/schemata"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// sharedBuild is the chapters built once with their switchable weakenings.
type sharedBuild struct {
	dir  string                       // scratch directory, removed by Close
	nums map[*weakening.Weakening]int // each switchable weakening's switch number
	bins map[string]string            // chapter -> its test binary
}

// Close removes the build's scratch directory.
func (b *sharedBuild) Close() {
	if b != nil {
		os.RemoveAll(b.dir)
	}
}

// switched returns w's switch number and its chapter's binary, and false
// if w is not in the shared build.
func (b *sharedBuild) switched(w *weakening.Weakening) (int, string, bool) {
	if b == nil {
		return 0, "", false
	}
	n, ok := b.nums[w]
	if !ok {
		return 0, "", false
	}
	bin, ok := b.bins[w.Chapter]
	return n, bin, ok
}

// buildShared writes the schemata of the queued weakenings and builds the
// chapters they belong to. A weakening whose target file cannot be read is
// left to the overlay path, which reports why. If the shared build fails,
// it returns a build carrying no weakening and says so through note.
func (t *Tool) buildShared(ctx context.Context, root string, queue []job, note func(string)) (*sharedBuild, error) {
	dir, err := os.MkdirTemp("", "drill-check-")
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	b := &sharedBuild{dir: dir, nums: map[*weakening.Weakening]int{}, bins: map[string]string{}}

	byFile := map[string][]*weakening.Weakening{}
	for _, j := range queue {
		byFile[j.w.File] = append(byFile[j.w.File], j.w)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	next := 1
	replace := map[string]string{}
	for _, file := range files {
		ws := byFile[file]
		abs := filepath.Join(root, filepath.FromSlash(file))
		src, err := os.ReadFile(abs)
		if err != nil {
			continue
		}
		nums := map[*weakening.Weakening]int{}
		for _, w := range ws {
			nums[w], next = next, next+1
		}
		out, alone := weakening.SchemaSource(src, ws, func(w *weakening.Weakening) int { return nums[w] })
		for _, w := range alone {
			delete(nums, w)
		}
		if len(nums) == 0 {
			continue
		}
		name, err := packageName(src)
		if err != nil {
			continue
		}
		copyPath := filepath.Join(dir, "schema", strings.ReplaceAll(file, "/", "_"))
		if err := schemata.WriteFile(copyPath, out); err != nil {
			return nil, err
		}
		replace[abs] = copyPath
		pkgDir := filepath.Join(root, filepath.FromSlash(path.Dir(file)))
		swPath := filepath.Join(dir, "schema", strings.ReplaceAll(path.Dir(file), "/", "_")+"_switch.go")
		if err := schemata.WriteFile(swPath, schemata.SwitchSource(name)); err != nil {
			return nil, err
		}
		replace[filepath.Join(pkgDir, schemata.SwitchFileName)] = swPath
		for w, n := range nums {
			b.nums[w] = n
		}
	}
	if len(b.nums) == 0 {
		return b, nil
	}
	chapters := map[string]bool{}
	for w := range b.nums {
		chapters[w.Chapter] = true
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := schemata.WriteOverlay(overlay, replace); err != nil {
		return nil, err
	}
	args := []string{"test", "-c", "-vet=off", "-o", filepath.Join(dir, "bin") + string(filepath.Separator), "-overlay", overlay}
	for ch := range chapters {
		args = append(args, "./"+weakening.ChaptersDir+"/"+ch+"/")
	}
	if out, err := t.command(ctx, root, args...).CombinedOutput(); err != nil {
		note(fmt.Sprintf("the shared build of the weakenings failed (%v: %s); grading each one with its own build instead",
			err, firstLines(string(out), 3)))
		b.nums = map[*weakening.Weakening]int{}
		return b, nil
	}
	for ch := range chapters {
		b.bins[ch] = filepath.Join(dir, "bin", ch+".test")
	}
	return b, nil
}

// packageName reads the package clause of a Go file.
func packageName(src []byte) (string, error) {
	f, err := goparser.ParseFile(token.NewFileSet(), "", src, goparser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	return f.Name.Name, nil
}

// gradeSwitched runs w's chapter binary from the shared build with w's
// switch on, in the chapter's folder, and evaluates the run as grade does.
func (t *Tool) gradeSwitched(ctx context.Context, root string, w *weakening.Weakening, num int, bin string, listed []string) (Result, error) {
	r := Result{Chapter: w.Chapter, Name: w.Name, FailedTests: []string{}, Tests: w.Tests}
	pkg := modulePath(filepath.Join(root, "go.mod")) + "/" + weakening.ChaptersDir + "/" + w.Chapter
	args := []string{"tool", "test2json", "-t", "-p", pkg, bin,
		"-test.v=test2json", "-test.count=1", "-test.timeout=" + t.timeout().String(), "-test.run=" + namedTests(w)}
	dir := filepath.Join(root, weakening.ChaptersDir, w.Chapter)
	runs, err := t.runEvents(ctx, dir, args, []string{schemata.SwitchEnv + "=" + strconv.Itoa(num)}, "check "+w.Name, nil)
	if err != nil {
		return r, fmt.Errorf("grade %s: %w", w.Name, err)
	}
	run, ok := runOf(runs, w.Chapter)
	if !ok {
		return r.invalid(RunFailed, "the test binary reported nothing for chapter "+w.Chapter), nil
	}
	return evaluate(w, run, listed, ""), nil
}
