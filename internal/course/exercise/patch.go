package exercise

// This file applies a unified diff, as go-internal's diff package writes
// it, to the file it was made from. A saved solution is such a diff
// against the shipped code; applying it is strict: every context and
// removed line must be where the diff says, byte for byte, so a solution
// is never applied to code it was not written against.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrPatch is returned (wrapped) when a diff does not apply to the file.
var ErrPatch = errors.New("exercise: the diff does not apply")

// noNewline marks, in a unified diff, a line that ends its file without a
// newline.
const noNewline = "\\ No newline at end of file"

// applyPatch applies patch, a unified diff with its "---"/"+++" header, to
// old. An empty patch leaves old as it is.
func applyPatch(old []byte, patch string) ([]byte, error) {
	if strings.TrimSpace(patch) == "" {
		return old, nil
	}
	src := splitLines(string(old))
	lines := splitLines(patch)
	var out []string
	next := 0 // the first line of src not yet copied
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "@@ ") {
		i++ // the diff, --- and +++ lines
	}
	for i < len(lines) {
		start, err := hunkStart(lines[i])
		if err != nil {
			return nil, err
		}
		if start < next {
			return nil, fmt.Errorf("%w: hunks out of order at %q", ErrPatch, strings.TrimSpace(lines[i]))
		}
		out = append(out, src[next:start]...)
		next = start
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "@@ "); i++ {
			l := lines[i]
			if strings.HasPrefix(l, noNewline) {
				continue // handled with the line before it
			}
			body := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], noNewline) {
				body = strings.TrimSuffix(body, "\n")
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(src) || src[next] != body {
					return nil, fmt.Errorf("%w: line %d is not %q", ErrPatch, next+1, strings.TrimSuffix(body, "\n"))
				}
				if l[0] == ' ' {
					out = append(out, body)
				}
				next++
			case '+':
				out = append(out, body)
			default:
				return nil, fmt.Errorf("%w: unexpected line %q", ErrPatch, strings.TrimSuffix(l, "\n"))
			}
		}
	}
	out = append(out, src[next:]...)
	return []byte(strings.Join(out, "")), nil
}

// hunkStart reads "@@ -a,b +c,d @@" and returns a-1 (the index of the
// hunk's first old line; 0 for a hunk at the start of an empty file).
func hunkStart(line string) (int, error) {
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, fmt.Errorf("%w: bad hunk header %q", ErrPatch, strings.TrimSpace(line))
	}
	a, _, _ := strings.Cut(f[1][1:], ",")
	n, err := strconv.Atoi(a)
	if err != nil {
		return 0, fmt.Errorf("%w: bad hunk header %q", ErrPatch, strings.TrimSpace(line))
	}
	return max(n-1, 0), nil
}

// splitLines splits s after each newline, keeping them; a last line
// without one is kept too.
func splitLines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}
