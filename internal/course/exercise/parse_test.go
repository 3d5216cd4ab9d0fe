package exercise

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestParseReadsEveryKey(t *testing.T) {
	t.Parallel()
	e, err := Parse("chapters/ch02_cas_claim/exercises/test-exact-token.txtar", []byte(`Write the test.

kind: test
property: Only the issued token completes.
file: internal/mailbox/complete.go
func: Mailbox.Complete
region: fencing_token = ?
withhold: TestA TestB
chaff: complete-ignores-token | the token is checked
chaff: mailbox:Mailbox.Complete:relop:0a1b2c3d | the token is checked exactly
-- weak --
package casclaim
`))
	assert.NilError(t, err)
	assert.NilError(t, e.Validate())
	assert.DeepEqual(t, e, &Exercise{
		Name: "test-exact-token", Chapter: "ch02_cas_claim", Path: "chapters/ch02_cas_claim/exercises/test-exact-token.txtar",
		Summary: "Write the test.", Kind: Test, Property: "Only the issued token completes.",
		File: "internal/mailbox/complete.go", Func: "Mailbox.Complete", Region: "fencing_token = ?",
		Withhold: []string{"TestA", "TestB"},
		Chaffs: []Chaff{{ID: "complete-ignores-token", Property: "the token is checked"},
			{ID: "mailbox:Mailbox.Complete:relop:0a1b2c3d", Property: "the token is checked exactly"}},
		Weak: "package casclaim\n",
	})
	assert.Check(t, !IsMutant(e.Chaffs[0].ID) && IsMutant(e.Chaffs[1].ID))
}

func TestValidateRefusesWhatAKindCannotUse(t *testing.T) {
	t.Parallel()
	const fix = "fix-x"
	cases := []struct {
		name, file, text, want string
	}{
		{"no-kind", fix, "S.\n\nproperty: P.\nfault: w\n", "no kind: key"},
		{"unknown-kind", fix, "S.\n\nkind: mend\nproperty: P.\nfault: w\n", `kind "mend": want fix, test or build`},
		{"name-not-of-kind", "test-x", "S.\n\nkind: fix\nproperty: P.\nfault: w\n", `name "test-x": want "fix-..."`},
		{"no-summary", fix, "kind: fix\nproperty: P.\nfault: w\n", "no summary"},
		{"no-property", fix, "S.\n\nkind: fix\nfault: w\n", "no property: key"},
		{"fix-without-fault", fix, "S.\n\nkind: fix\nproperty: P.\n", "fix without fault: key"},
		{"mutant-without-expect", fix, "S.\n\nkind: fix\nproperty: P.\nfault: a:B:c:d\n", "a fix whose fault is a mutant needs expect:"},
		{"fix-with-stub", fix, "S.\n\nkind: fix\nproperty: P.\nfault: w\n-- stub --\n\treturn nil\n", "-- stub -- is not used by a fix exercise"},
		{"bad-expect", fix, "S.\n\nkind: fix\nproperty: P.\nfault: w\nexpect: (\n", "expect: error parsing regexp"},
		{"build-outside-internal", "build-x", "S.\n\nkind: build\nproperty: P.\nfile: cmd/x.go\nfunc: F\n-- stub --\n\treturn nil\n", `file "cmd/x.go": want a clean slash-separated path under internal/`},
		{"build-without-stub", "build-x", "S.\n\nkind: build\nproperty: P.\nfile: internal/x/x.go\nfunc: F\n", "build without a -- stub -- section"},
		{"test-without-chaff", "test-x", "S.\n\nkind: test\nproperty: P.\nfile: internal/x/x.go\nfunc: F\nwithhold: TestX\n-- weak --\npackage x\n", "test without chaff: lines"},
		{"test-withholds-a-subtest", "test-x", "S.\n\nkind: test\nproperty: P.\nfile: internal/x/x.go\nfunc: F\nwithhold: TestX/sub\nchaff: w | p\n-- weak --\npackage x\n", `withhold: "TestX/sub" is not a top-level Go test name`},
		{"test-same-chaff-twice", "test-x", "S.\n\nkind: test\nproperty: P.\nfile: internal/x/x.go\nfunc: F\nwithhold: TestX\nchaff: w | p\nchaff: w | q\n-- weak --\npackage x\n", "chaff w: given twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := Parse("chapters/ch01_x/exercises/"+tc.file+".txtar", []byte(tc.text))
			assert.NilError(t, err)
			err = e.Validate()
			assert.Check(t, cmp.ErrorIs(err, ErrMalformed))
			assert.Check(t, cmp.ErrorContains(err, tc.want))
		})
	}
}

func TestParseRefusesMalformedSyntax(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"S.\n\nkind: fix\nkind: fix\n":                  "line 4: kind: given twice",
		"S.\n\nkind: fix\nnot a key\n":                  `line 4: "not a key" is not a key line`,
		"S.\n\nkind: test\nchaff: no-property\n":        `line 4: chaff: want "NAME-OR-MUTANT-ID | the property it breaks"`,
		"S.\n\nkind: build\n-- body --\n\treturn nil\n": `section "body": want "stub" or "weak"`,
	}
	for text, want := range cases {
		_, err := Parse("chapters/ch01_x/exercises/x.txtar", []byte(text))
		assert.Check(t, cmp.ErrorIs(err, ErrMalformed), "%q", text)
		assert.Check(t, cmp.ErrorContains(err, want), "%q", text)
	}
}

func TestLearnerFileAndSkeletonNameTheExercise(t *testing.T) {
	t.Parallel()
	e := &Exercise{Name: "test-exact-token", Chapter: "ch02_cas_claim", Kind: Test, Summary: "Write it.",
		Property: "Only the issued token completes.", Withhold: []string{"TestA"}}
	assert.Equal(t, e.LearnerFile(), "chapters/ch02_cas_claim/learner_test_exact_token_test.go")
	skel := string(e.skeleton("casclaim"))
	names, err := learnerTests(e.LearnerFile(), []byte(skel))
	assert.NilError(t, err)
	assert.DeepEqual(t, names, []string{"TestLearnerExactToken"})
	assert.Check(t, cmp.Contains(skel, "\tt.Fatal(\"not written yet: Only the issued token completes.\")\n"),
		"the skeleton fails until written, so a started exercise is red")
	assert.Check(t, strings.HasPrefix(skel, "package casclaim\n"))

	_, err = learnerTests("x_test.go", []byte("package x\nfunc TestBroken(t *testing.T) {"))
	assert.Check(t, err != nil && !errors.Is(err, ErrMalformed), "a learner file that does not parse is reported as the parser says it")
}
