package weakening

// This file renders a weakening as a unified diff, the form a learner's
// editor and `git diff` already show them.

import (
	"fmt"
	"strings"
)

// context is how many unchanged lines surround each change in a hunk.
const context = 3

// Diff returns the unified diff from old to new, both the contents of the
// file name (relative to the module root), with three lines of context, in
// the form `git diff` prints ("--- a/NAME", "+++ b/NAME", "@@ ... @@"
// hunks). It returns "" when old and new are equal.
func Diff(name string, old, new []byte) string {
	a, b := splitLines(string(old)), splitLines(string(new))
	ops := diffLines(a, b)
	var out strings.Builder
	for _, h := range hunks(ops) {
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(h.aStart, h.aLen), span(h.bStart, h.bLen))
		for _, op := range ops[h.from:h.to] {
			out.WriteString(string(op.kind) + op.line)
			if !strings.HasSuffix(op.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return out.String()
}

// opKind is a diff line's prefix: unchanged, removed or added.
type opKind byte

const (
	same    opKind = ' '
	removed opKind = '-'
	added   opKind = '+'
)

// op is one line of the diff with the line numbers (0-based) it has in
// the old and new contents.
type op struct {
	kind   opKind
	line   string
	ai, bi int
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns the edit script from a to b: the common prefix and
// suffix are matched directly, the middle by a longest common subsequence
// (weakenings change a few lines, so the middle is small).
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]

	// lcs[i][j] is the length of the longest common subsequence of ma[i:] and mb[j:].
	lcs := make([][]int, len(ma)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(mb)+1)
	}
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}

	var ops []op
	for k := 0; k < pre; k++ {
		ops = append(ops, op{same, a[k], k, k})
	}
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			ops = append(ops, op{same, ma[i], pre + i, pre + j})
			i, j = i+1, j+1
		case j == len(mb) || (i < len(ma) && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{removed, ma[i], pre + i, pre + j})
			i++
		default:
			ops = append(ops, op{added, mb[j], pre + i, pre + j})
			j++
		}
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, op{same, a[len(a)-suf+k], len(a) - suf + k, len(b) - suf + k})
	}
	return ops
}

// hunk is a run of ops[from:to] with its line ranges (1-based starts).
type hunk struct {
	from, to     int
	aStart, aLen int
	bStart, bLen int
}

// hunks groups the changed ops with up to context unchanged lines around
// them, merging groups whose context would touch.
func hunks(ops []op) []hunk {
	var hs []hunk
	for k := 0; k < len(ops); {
		if ops[k].kind == same {
			k++
			continue
		}
		from := max(0, k-context)
		// Extend while the next change is within 2*context unchanged lines.
		end := k
		for end < len(ops) {
			if ops[end].kind != same {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == same {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				break
			}
			end = run
		}
		to := min(len(ops), end+context)
		h := hunk{from: from, to: to, aStart: ops[from].ai + 1, bStart: ops[from].bi + 1}
		for _, o := range ops[from:to] {
			if o.kind != added {
				h.aLen++
			}
			if o.kind != removed {
				h.bLen++
			}
		}
		hs = append(hs, h)
		k = to
	}
	return hs
}

// span formats a hunk range the way unified diffs do: "start,len", with
// the start one line earlier when the range is empty.
func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
