package snippet

// This file reads a chapter text: its sections, the go blocks in each, the
// markers that say which blocks to type and which commands to run, and the
// drill try lines that make a section a weakening's.

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// ErrMarker is returned (wrapped, with the line at fault) for a marker
// that cannot be read or marks nothing it can apply to.
var ErrMarker = errors.New("snippet: bad marker")

// Text is one chapter text, cut into sections.
type Text struct {
	Path     string // relative to the module root, slash-separated
	Sections []*Section
}

// Section is the text under one heading, up to the next heading.
type Section struct {
	Title string   // the heading without its #s; "" before the first heading
	Line  int      // of the heading, 1-based; 0 before the first heading
	Steps []Step   // the marked blocks and command blocks, in order
	Tries []string // the weakenings its drill try lines name
	Loose []Block  // the go blocks no marker claims
}

// Block is a fenced code block.
type Block struct {
	Line int    // of the opening fence, 1-based
	Lang string // the fence's info string, e.g. "go"
	Body string // the lines inside, less the fence's indentation, each ending in "\n"
	Lead string // the last non-blank line before the fence, trimmed
}

// Step is one marked thing to do: an edit or a block of commands.
type Step struct {
	Line int // of the marker, 1-based
	Edit *Edit
	Run  *Run
}

// Run is a marked block of commands and what its go command must do.
type Run struct {
	Commands []Command
	Expect   string         // "" (no go command), "passes" or "fails"
	Output   *regexp.Regexp // for "fails": what the output must match
}

// Command is one line of a run block.
type Command struct {
	Line int      // 1-based
	Args []string // the words, single quotes taken off: "go", "test", ...
}

// Weakening returns the name a drill apply command names, or "".
func (c Command) Weakening() string {
	if len(c.Args) == 5 && c.Args[0] == "go" && c.Args[1] == "run" && c.Args[2] == drillPkg && c.Args[3] == "apply" {
		return c.Args[4]
	}
	return ""
}

// Restores reports whether c is drill restore.
func (c Command) Restores() bool {
	return len(c.Args) == 4 && c.Args[0] == "go" && c.Args[1] == "run" && c.Args[2] == drillPkg && c.Args[3] == "restore"
}

// GoCommand reports whether c is a go test, go build or go vet.
func (c Command) GoCommand() bool {
	return len(c.Args) >= 2 && c.Args[0] == "go" && (c.Args[1] == "test" || c.Args[1] == "build" || c.Args[1] == "vet")
}

func (c Command) String() string { return strings.Join(c.Args, " ") }

// drillPkg is how the chapter texts run drill.
const drillPkg = "./tools/drill"

// Parse reads the chapter text at path (relative to the module root) whose
// contents are data. Every marker problem is reported, each wrapping
// ErrMarker and naming its line.
func Parse(path string, data []byte) (*Text, error) {
	p := &reader{text: &Text{Path: path}, lines: strings.Split(string(data), "\n")}
	p.sec = &Section{}
	p.read()
	return p.text, errors.Join(p.errs...)
}

// reader is the state of one Parse.
type reader struct {
	text  *Text
	lines []string
	sec   *Section
	lead  string  // the last non-blank line outside a fence
	mark  *marker // a marker waiting for what it marks
	errs  []error
}

// marker is an apply or run marker before its block is found.
type marker struct {
	line   int
	edit   *Edit // for apply, without its block
	expect string
	output *regexp.Regexp
}

func (p *reader) fail(line int, format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s:%d: %w: %s", p.text.Path, line, ErrMarker, fmt.Sprintf(format, args...)))
}

// read goes through the lines once, filing each into its section.
func (p *reader) read() {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(strings.TrimLeft(l, " "), "```"):
			i = p.fence(i)
		case headingLine.MatchString(l):
			p.heading(i + 1)
			p.sec = &Section{Title: strings.TrimSpace(strings.TrimLeft(l, "#")), Line: i + 1}
		case isMarker(trimmed):
			p.marker(i+1, trimmed)
		case trimmed == "":
		case p.mark != nil && p.mark.edit == nil && isIndented(l):
			i = p.commands(i)
		default:
			p.stray(i + 1)
			p.sec.Tries = append(p.sec.Tries, weakening.TryNames([]byte(l))...)
			p.lead = trimmed
		}
	}
	p.heading(len(p.lines))
}

// heading closes the current section.
func (p *reader) heading(line int) {
	p.stray(line)
	p.text.Sections = append(p.text.Sections, p.sec)
}

// stray reports a marker still waiting when line is not what it marks.
func (p *reader) stray(line int) {
	if p.mark == nil {
		return
	}
	want := "an indented block of commands"
	if p.mark.edit != nil {
		want = "a ```go block"
	}
	p.fail(p.mark.line, "the marker must be followed by %s; line %d is not one", want, line)
	p.mark = nil
}

// fence reads the fenced block opening at lines[i] and returns the index of
// its closing line.
func (p *reader) fence(i int) int {
	open := p.lines[i]
	indent := len(open) - len(strings.TrimLeft(open, " "))
	b := Block{Line: i + 1, Lang: strings.TrimSpace(strings.TrimLeft(open, " `")), Lead: p.lead}
	var body strings.Builder
	j := i + 1
	for ; j < len(p.lines) && !strings.HasPrefix(strings.TrimLeft(p.lines[j], " "), "```"); j++ {
		body.WriteString(unindent(p.lines[j], indent) + "\n")
	}
	b.Body = body.String()
	p.block(b)
	p.lead = ""
	return j
}

// unindent takes up to n leading spaces off l.
func unindent(l string, n int) string {
	for ; n > 0 && strings.HasPrefix(l, " "); n-- {
		l = l[1:]
	}
	return l
}

// block files b under the marker waiting for it, or as loose.
func (p *reader) block(b Block) {
	m := p.mark
	p.mark = nil
	switch {
	case m == nil && b.Lang == "go":
		p.sec.Loose = append(p.sec.Loose, b)
	case m == nil:
	case m.edit == nil:
		p.fail(m.line, "a run marker must be followed by an indented block of commands, not a fenced block (line %d)", b.Line)
	case b.Lang != "go":
		p.fail(m.line, "an apply marker must be followed by a ```go block; line %d opens a ```%s block", b.Line, b.Lang)
	default:
		e := *m.edit
		e.Block = b
		if e.How == "replace" {
			if len(p.sec.Loose) == 0 {
				p.fail(m.line, "replace needs the text to replace: an unmarked go block before it in the section")
				return
			}
			e.Find = p.sec.Loose[len(p.sec.Loose)-1].Body
			p.sec.Loose = p.sec.Loose[:len(p.sec.Loose)-1]
		}
		p.sec.Steps = append(p.sec.Steps, Step{Line: m.line, Edit: &e})
	}
}

// commands reads the indented block starting at lines[i] under a run
// marker and returns the index of its last line.
func (p *reader) commands(i int) int {
	m := p.mark
	p.mark = nil
	r := &Run{Expect: m.expect, Output: m.output}
	goCommands := 0
	for ; i < len(p.lines) && isIndented(p.lines[i]); i++ {
		c := Command{Line: i + 1, Args: words(strings.TrimSpace(p.lines[i]))}
		switch {
		case c.GoCommand():
			goCommands++
		case c.Weakening() != "", c.Restores():
		default:
			p.fail(c.Line, "a run block holds go test, go build, go vet, drill apply NAME and drill restore; not %q", c)
		}
		r.Commands = append(r.Commands, c)
	}
	switch {
	case goCommands > 1:
		p.fail(m.line, "the block holds %d go commands; one marker can speak for one", goCommands)
	case goCommands == 1 && r.Expect == "":
		p.fail(m.line, "the block runs a go command: say whether it passes or fails")
	case goCommands == 0 && r.Expect != "":
		p.fail(m.line, "%s, but the block runs no go command", r.Expect)
	}
	p.sec.Steps = append(p.sec.Steps, Step{Line: m.line, Run: r})
	return i - 1
}

// isMarker reports whether a trimmed line is an apply or run marker.
func isMarker(trimmed string) bool {
	if !strings.HasPrefix(trimmed, "<!--") || !strings.HasSuffix(trimmed, "-->") {
		return false
	}
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(trimmed, "<!--"), "-->"))
	return strings.HasPrefix(inner, "apply") || strings.HasPrefix(inner, "run")
}

func isIndented(l string) bool { return strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") }

// marker reads the marker on a trimmed line.
func (p *reader) marker(line int, trimmed string) {
	p.stray(line)
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(trimmed, "<!--"), "-->"))
	m := &marker{line: line}
	var err error
	switch {
	case inner == "run":
	case strings.HasPrefix(inner, "run:"):
		m.expect, m.output, err = parseExpect(strings.TrimSpace(strings.TrimPrefix(inner, "run:")))
	case strings.HasPrefix(inner, "apply:"):
		m.edit, err = parseEdit(strings.TrimSpace(strings.TrimPrefix(inner, "apply:")))
	default:
		err = errors.New(`want "apply: FILE HOW", "run", "run: passes" or "run: fails \"REGEXP\""`)
	}
	if err != nil {
		p.fail(line, "%q: %v", trimmed, err)
		return
	}
	p.mark = m
}

// parseExpect reads what a run marker promises.
func parseExpect(s string) (string, *regexp.Regexp, error) {
	if s == "passes" {
		return s, nil, nil
	}
	rest, ok := strings.CutPrefix(s, "fails ")
	if !ok {
		return "", nil, errors.New(`want "passes" or "fails \"REGEXP\""`)
	}
	q, err := strconv.Unquote(strings.TrimSpace(rest))
	if err != nil {
		return "", nil, fmt.Errorf("fails: want a Go string literal after it: %w", err)
	}
	re, err := regexp.Compile(q)
	if err != nil {
		return "", nil, err
	}
	return "fails", re, nil
}

// parseEdit reads an apply marker's "FILE HOW [ARG]".
func parseEdit(s string) (*Edit, error) {
	file, rest, _ := strings.Cut(s, " ")
	how, arg, _ := strings.Cut(strings.TrimSpace(rest), " ")
	arg = strings.TrimSpace(arg)
	e := &Edit{File: file, How: how}
	switch how {
	case "append", "replace":
		if arg != "" {
			return nil, fmt.Errorf("%s takes nothing after it", how)
		}
	case "replace-func":
		if !funcName.MatchString(arg) {
			return nil, errors.New("replace-func wants a function name, Func or Type.Method")
		}
		e.Arg = arg
	case "before", "after":
		q, err := strconv.Unquote(arg)
		if err != nil || q == "" {
			return nil, fmt.Errorf("%s wants the text of a line, as a Go string literal", how)
		}
		e.Arg = q
	default:
		return nil, errors.New("want FILE then append, replace, replace-func NAME, before \"TEXT\" or after \"TEXT\"")
	}
	if file == "" || strings.HasPrefix(file, "/") || strings.Contains(file, "..") || strings.Contains(file, `\`) {
		return nil, fmt.Errorf("%q: want a slash-separated path inside the module", file)
	}
	return e, nil
}

// headingLine matches a Markdown heading.
var headingLine = regexp.MustCompile(`^#{1,6} `)

var funcName = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$`)

// words splits a command line into words, as a shell would split one that
// uses single quotes and nothing else.
func words(line string) []string {
	var out []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if inWord {
				out = append(out, w.String())
				w.Reset()
			}
			inWord = false
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, w.String())
	}
	return out
}
