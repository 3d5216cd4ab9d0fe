package exercise

// This file holds the chapter texts to the exercises: an exercise its
// chapter's README never names (`go run ./tools/drill start NAME`) is one
// no reader of the chapter finds, so drill check fails on it.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// startLine matches the command a chapter README gives for an exercise.
var startLine = regexp.MustCompile(`go run \./tools/drill start +([a-z0-9-]+)`)

// StartNames returns the exercises readme names with a start line.
func StartNames(readme []byte) []string {
	var names []string
	for _, m := range startLine.FindAllSubmatch(readme, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

// UnnamedInText returns a problem for each exercise of chapter that its
// README does not name, and for a README that names none it has.
func UnnamedInText(set *Set, chapter string) []string {
	es := set.InChapter(chapter)
	if len(es) == 0 {
		return nil
	}
	file := filepath.Join(set.Root, weakening.ChaptersDir, chapter, "README.md")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{fmt.Sprintf("%s/%s has exercises but no README.md to name them", weakening.ChaptersDir, chapter)}
	}
	if err != nil {
		return []string{err.Error()}
	}
	named := StartNames(data)
	var out []string
	for _, e := range es {
		if !slices.Contains(named, e.Name) {
			out = append(out, fmt.Sprintf("%s/%s/README.md never names exercise %s: give its line, go run ./tools/drill start %s",
				weakening.ChaptersDir, chapter, e.Name, e.Name))
		}
	}
	return out
}
