package check

// This file is the graded check's shared build: every weakening that only
// changes function bodies is compiled into one test binary per chapter,
// behind a switch (see weakening.SchemaSource and package variant), so the
// check pays one build per chapter instead of one per weakening. A
// weakening the shared build cannot carry is graded through its own
// overlay; so is every weakening when the shared build fails.

import (
	"context"
	"fmt"
	goparser "go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// sharedBuild is the chapters built once with their switchable weakenings.
type sharedBuild struct {
	shared *variant.Shared
	nums   map[*weakening.Weakening]int // each switchable weakening's switch number
}

// switched returns w's switch number and its chapter's binary, and false
// if w is not in the shared build.
func (b *sharedBuild) switched(w *weakening.Weakening) (int, variant.Binary, bool) {
	n, ok := b.nums[w]
	if !ok {
		return 0, variant.Binary{}, false
	}
	bin, ok := b.shared.Binary(w.Chapter)
	return n, bin, ok
}

// buildShared writes the schemata of the queued weakenings and builds the
// chapters they belong to. A weakening whose target file cannot be read is
// left to the overlay path, which reports why. If the shared build fails,
// it returns a build carrying no weakening and says so through note; an
// error is only an interrupted build.
func buildShared(ctx context.Context, r *variant.Runner, queue []job, note func(string)) (*sharedBuild, error) {
	b := &sharedBuild{nums: map[*weakening.Weakening]int{}}
	schemas := schemata(r.Root, queue, b.nums)
	if len(b.nums) == 0 {
		return b, nil
	}
	module, err := r.Module(ctx)
	if err != nil {
		return nil, err
	}
	var chapters []variant.Chapter
	for _, name := range chaptersOf(b.nums) {
		chapters = append(chapters, variant.Chapter{Name: name, ImportPath: module + "/" + weakening.ChaptersDir + "/" + name,
			Dir: filepath.Join(r.Root, weakening.ChaptersDir, name)})
	}
	if b.shared, err = r.BuildShared(ctx, schemas, chapters); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("check: %w", ctx.Err())
		}
		note(fmt.Sprintf("the shared build of the weakenings failed (%s); grading each one with its own build instead", variant.FirstLines(err.Error(), 3, "; ")))
		b.nums = map[*weakening.Weakening]int{}
	}
	return b, nil
}

// schemata numbers the switchable weakenings of queue in nums and returns
// the schema of each file they edit.
func schemata(root string, queue []job, nums map[*weakening.Weakening]int) []variant.Schema {
	byFile := map[string][]*weakening.Weakening{}
	for _, j := range queue {
		byFile[j.w.File] = append(byFile[j.w.File], j.w)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	var schemas []variant.Schema
	next := 1
	for _, file := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			continue
		}
		name, err := packageName(src)
		if err != nil {
			continue
		}
		mine := map[*weakening.Weakening]int{}
		for _, w := range byFile[file] {
			mine[w], next = next, next+1
		}
		out, alone := weakening.SchemaSource(src, byFile[file], func(w *weakening.Weakening) int { return mine[w] })
		for _, w := range alone {
			delete(mine, w)
		}
		if len(mine) == 0 {
			continue
		}
		schemas = append(schemas, variant.Schema{File: file, Package: name, Source: []byte(out)})
		maps.Copy(nums, mine)
	}
	return schemas
}

// chaptersOf lists the chapters of the weakenings in nums, sorted.
func chaptersOf(nums map[*weakening.Weakening]int) []string {
	var names []string
	for w := range nums {
		if !slices.Contains(names, w.Chapter) {
			names = append(names, w.Chapter)
		}
	}
	sort.Strings(names)
	return names
}

// packageName reads the package clause of a Go file.
func packageName(src []byte) (string, error) {
	f, err := goparser.ParseFile(token.NewFileSet(), "", src, goparser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	return f.Name.Name, nil
}
