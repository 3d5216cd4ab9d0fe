package check

// This file holds the chapter text to the catalog: a weakening the
// chapter's README never names (its `go run ./tools/drill try NAME` line)
// is a mistake no learner is shown, so the check fails on it, as a test
// of tools/drill does.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// unnamedInText adds a problem for each weakening of ch its README does
// not name.
func (rep *Report) unnamedInText(root string, ch *weakening.Chapter) {
	if len(ch.Weakenings) == 0 {
		return
	}
	file := filepath.Join(root, weakening.ChaptersDir, ch.Name, "README.md")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return // a chapter without a text (a fixture's); tools/drill's tests require one of the course's
	}
	if err != nil {
		rep.Problems = append(rep.Problems, err.Error())
		return
	}
	named := weakening.TryNames(data)
	for _, w := range ch.Weakenings {
		if !slices.Contains(named, w.Name) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s/%s/README.md never names weakening %s: teach it with its line, %s %s",
				weakening.ChaptersDir, ch.Name, w.Name, weakening.TryCommand, w.Name))
		}
	}
}
