package exercise

// This file gives hints, one level per call, each narrower than the last:
// the property at stake, then the file and function, then the lines.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Levels is how many hint levels every exercise has.
const Levels = 3

// ErrNotStarted is returned by Hint and Verify for an exercise that has
// not been started (or was reset since).
var ErrNotStarted = errors.New("exercise: not started")

// Hint is one hint.
type Hint struct {
	Level int    // 1 to Levels
	Text  string // one or more lines
}

// NextHint returns the next hint of e, the level after the highest the
// learner has seen (the last level again once all are seen), and records
// it.
func NextHint(set *Set, e *Exercise) (Hint, error) {
	prog, err := LoadProgress(set.Root)
	if err != nil {
		return Hint{}, err
	}
	w, ok, err := LoadWork(set.Root, e.Name)
	if err != nil {
		return Hint{}, err
	}
	if !ok {
		return Hint{}, fmt.Errorf("%w: %s", ErrNotStarted, e.Name)
	}
	rec := prog.record(e.Name)
	level := min(rec.Hints+1, Levels)
	text, err := hintText(set.Root, e, w, level)
	if err != nil {
		return Hint{}, err
	}
	rec.Hints = level
	if err := prog.Save(set.Root); err != nil {
		return Hint{}, err
	}
	return Hint{Level: level, Text: text}, nil
}

// hintText is hint level of e.
func hintText(root string, e *Exercise, w *Work, level int) (string, error) {
	if level == 1 {
		return "The property at stake: " + e.Property, nil
	}
	switch e.Kind {
	case Fix:
		if w.Where == nil {
			return "", fmt.Errorf("hint: %s has no record of where its fault is; reset it and start again", e.Name)
		}
		if level == 2 {
			return fmt.Sprintf("The fault is in %s, in %s.", w.Where.File, w.Where.Func), nil
		}
		return linesHint(root, w.Where.File, w.Where.First, w.Where.Last,
			fmt.Sprintf("Look at %s of %s:", lineRange(w.Where.First, w.Where.Last), w.Where.File))
	case Test:
		if level == 2 {
			return fmt.Sprintf("The property is decided by %s in %s: a test must call it on the exact case where "+
				"it decides, and check what it answered and what it changed.", e.Func, e.File), nil
		}
		first, last, err := regionLines(root, e)
		if err != nil {
			return "", err
		}
		return linesHint(root, e.File, first, last,
			fmt.Sprintf("The decision is made at %s of %s; every broken copy breaks something here:", lineRange(first, last), e.File))
	default: // Build
		if level == 2 {
			return fmt.Sprintf("Write the body of %s in %s. Its doc comment, kept above the stub, is the contract.", e.Func, e.File), nil
		}
		readme := "chapters/" + e.Chapter + "/README.md"
		first, last, err := sectionLines(root, readme, e.Section)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("The section %q of %s (%s) says what it must do.", e.Section, readme, lineRange(first, last)), nil
	}
}

// lineRange names lines first to last: "line 166", or "lines 20-24".
func lineRange(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// hintLines bounds the lines a hint quotes.
const hintLines = 12

// linesHint is head followed by lines first to last of file, numbered,
// at most hintLines of them.
func linesHint(root, file string, first, last int, head string) (string, error) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		return "", fmt.Errorf("hint: %w", err)
	}
	lines := strings.Split(string(src), "\n")
	var b strings.Builder
	b.WriteString(head)
	for n := first; n <= last && n <= len(lines); n++ {
		if n-first == hintLines {
			fmt.Fprintf(&b, "\n       ... (%d more lines)", last-n+1)
			break
		}
		fmt.Fprintf(&b, "\n%5d  %s", n, strings.ReplaceAll(lines[n-1], "\t", "    "))
	}
	return b.String(), nil
}

// regionLines returns the lines of e.Region in e.File, or of e.Func if e
// gives no region.
func regionLines(root string, e *Exercise) (first, last int, err error) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.File)))
	if err != nil {
		return 0, 0, fmt.Errorf("hint: %w", err)
	}
	if e.Region != "" {
		i := bytes.Index(src, []byte(e.Region))
		if i < 0 {
			return 0, 0, fmt.Errorf("hint: %s no longer holds %q", e.File, e.Region)
		}
		first, last = lineSpan(src, i, i+len(e.Region))
		return first, last, nil
	}
	fset, f, err := parseGo(e.File, src)
	if err != nil {
		return 0, 0, fmt.Errorf("hint: %w", err)
	}
	fd, ok := findFunc(f, e.Func)
	if !ok {
		return 0, 0, fmt.Errorf("hint: %s in %s: %w", e.Func, e.File, ErrNoFunc)
	}
	return fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line, nil
}

// heading matches a Markdown heading line.
var heading = regexp.MustCompile(`^(#+)\s+(.*?)\s*$`)

// sectionLines returns the lines of the README section whose heading is
// title: from the heading to the line before the next heading of the same
// or a higher level.
func sectionLines(root, readme, title string) (first, last int, err error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(readme)))
	if err != nil {
		return 0, 0, fmt.Errorf("hint: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	depth, fenced := 0, false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
		}
		m := heading.FindStringSubmatch(l)
		if fenced {
			m = nil
		}
		if m == nil {
			continue
		}
		if first == 0 && m[2] == title {
			first, depth = i+1, len(m[1])
			continue
		}
		if first != 0 && len(m[1]) <= depth {
			return first, lastText(lines, i), nil
		}
	}
	if first == 0 {
		return 0, 0, fmt.Errorf("hint: %s has no section %q", readme, title)
	}
	return first, lastText(lines, len(lines)), nil
}

// lastText returns the 1-based number of the last non-blank line among
// the first n lines.
func lastText(lines []string, n int) int {
	for n > 0 && strings.TrimSpace(lines[n-1]) == "" {
		n--
	}
	return n
}
