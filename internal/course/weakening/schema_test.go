package weakening

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

const counterSrc = `package counter

import "errors"

var ErrFull = errors.New("full")

type Counter struct{ n, ceiling int }

func (c *Counter) Add(by int, labels ...string) error {
	if c.n >= c.ceiling {
		return ErrFull
	}
	c.n += by
	return nil
}

func (c *Counter) Reset() { c.n = 0 }
`

// TestSchemaSourceSwitchesBodyOnlyWeakenings: a weakening that changes
// only function bodies runs behind its switch, as a renamed copy the
// original hands over to; one that changes anything else (here an import)
// is left to be built alone.
func TestSchemaSourceSwitchesBodyOnlyWeakenings(t *testing.T) {
	t.Parallel()
	body := &Weakening{Name: "off-by-one", Edits: []Edit{{Before: "c.n >= c.ceiling", After: "c.n > c.ceiling"}}}
	reset := &Weakening{Name: "reset-keeps", Edits: []Edit{{Before: "c.n = 0", After: "c.n = c.n"}}}
	imports := &Weakening{Name: "new-import", Edits: []Edit{{Before: `import "errors"`, After: "import (\n\t\"errors\"\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint"}}}
	nums := map[*Weakening]int{body: 3, reset: 4, imports: 5}

	out, alone := SchemaSource([]byte(counterSrc), []*Weakening{body, reset, imports}, func(w *Weakening) int { return nums[w] })

	assert.DeepEqual(t, alone, []*Weakening{imports})
	_, err := parser.ParseFile(token.NewFileSet(), "schema.go", out, 0)
	assert.NilError(t, err, "the schemata source must parse:\n%s", out)
	assert.Assert(t, is.Contains(out, "if _fencelabOn(3) { return c.Add_fencelabWeak3(by, labels...) };"), "Add hands over to weakening 3:\n%s", out)
	assert.Assert(t, is.Contains(out, "if _fencelabOn(4) { c.Reset_fencelabWeak4(); return };"), "Reset hands over to weakening 4:\n%s", out)
	assert.Assert(t, is.Contains(out, "func (c *Counter) Add_fencelabWeak3(by int, labels ...string) error {\n\tif c.n > c.ceiling {"), "the weakened copy of Add:\n%s", out)
	assert.Assert(t, strings.Contains(out, "if c.n >= c.ceiling {"), "the original Add stays as it was")
	assert.Assert(t, !strings.Contains(out, "fencelabWeak5"), "the import weakening is built alone, not switched")
}

// TestSchemaSourceLeavesOutWhatCannotApply: a weakening whose before-text
// is not in the file cannot be switched; it is built alone, where its
// problem is reported.
func TestSchemaSourceLeavesOutWhatCannotApply(t *testing.T) {
	t.Parallel()
	stale := &Weakening{Name: "stale", Edits: []Edit{{Before: "no such text", After: "x"}}}
	out, alone := SchemaSource([]byte(counterSrc), []*Weakening{stale}, func(*Weakening) int { return 1 })
	assert.DeepEqual(t, alone, []*Weakening{stale})
	assert.Equal(t, out, counterSrc, "with nothing switched the file is unchanged")
}
