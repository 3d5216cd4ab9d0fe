package runner_test

// This file keeps CONTRACT.md, the runner's written contract, in step
// with the runner's command table: a command nobody documented, or a
// section about a command that is gone, fails here rather than in a
// learner's script.

import (
	"bufio"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner"
)

// contractFile is the runner's contract, beside this package.
const contractFile = "CONTRACT.md"

// commandHeading is the heading that opens a command's section in
// contractFile. Other level-2 headings (the common rules, what a later
// chapter brings) are not command sections.
var commandHeading = regexp.MustCompile("^## `fencelab ([^`]+)`$")

// contractSection is one command's section of contractFile.
type contractSection struct {
	command string
	text    string // from its heading up to the next level-2 heading
}

// readContract returns the command sections of contractFile, in the
// order they appear.
func readContract(t testing.TB) []contractSection {
	t.Helper()
	data, err := os.ReadFile(contractFile)
	assert.NilError(t, err, "the runner's contract must live beside it")
	var sections []contractSection
	var current *contractSection
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			current = nil
			if m := commandHeading.FindStringSubmatch(line); m != nil {
				sections = append(sections, contractSection{command: m[1]})
				current = &sections[len(sections)-1]
			}
		}
		if current != nil {
			current.text += line + "\n"
		}
	}
	assert.NilError(t, sc.Err())
	return sections
}

// commandNames lists the runner's commands, in table order.
func commandNames() []string {
	names := make([]string, len(runner.Commands))
	for i, c := range runner.Commands {
		names[i] = c.Name
	}
	return names
}

// TestContractHasOneSectionPerCommand: CONTRACT.md has exactly one
// section for each command in the runner's table and none for a command
// the table lacks, so a script written from the contract runs a command
// that exists, and every command that exists is written down.
func TestContractHasOneSectionPerCommand(t *testing.T) {
	sections := readContract(t)
	documented := map[string]int{}
	for _, s := range sections {
		documented[s.command]++
	}
	commands := commandNames()
	for _, name := range commands {
		assert.Check(t, documented[name] > 0,
			"runner command %q has no section in %s; want a heading \"## `fencelab %s`\" that gives its flags and its JSON",
			name, contractFile, name)
		assert.Check(t, documented[name] <= 1,
			"%s has %d sections for command %q; want one", contractFile, documented[name], name)
	}
	for _, s := range sections {
		assert.Check(t, slices.Contains(commands, s.command),
			"%s has a section for command %q, which the runner's command table (%s) does not have; want sections only for commands that exist",
			contractFile, s.command, strings.Join(commands, ", "))
	}
}

// TestContractNamesEveryFlagOfItsCommand: each command's section names
// every flag the command defines, so no flag a command accepts goes
// undocumented. (--format and --keep, which the frame adds to every
// command, are in the common rules.)
func TestContractNamesEveryFlagOfItsCommand(t *testing.T) {
	text := map[string]string{}
	for _, s := range readContract(t) {
		text[s.command] = s.text
	}
	for _, c := range runner.Commands {
		section, ok := text[c.Name]
		if !ok {
			continue // TestContractHasOneSectionPerCommand reports it
		}
		fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
		c.New(fs)
		fs.VisitAll(func(f *flag.Flag) {
			assert.Check(t, strings.Contains(section, "`--"+f.Name+"`"),
				"the section of %q in %s never names its flag --%s; want it written there as `--%s` with its values and default",
				c.Name, contractFile, f.Name, f.Name)
		})
	}
}
