# fencelab: the targets a learner and CI use. Every target is a plain go
# command; read the recipe to see what it runs. `make help` lists them.

GO ?= go
CHAPTERS := ch01 ch02 ch03 ch04 ch05 ch06 ch07 ch08 ch09 ch10

.PHONY: help test run vet check mutate race prove-exercises journey grade bench bench-peers $(CHAPTERS)

## help: list the targets, one line each, and the learner's commands.
help:
	@awk '/^## [^ :]+( \.\. [^ :]+)?: /{ i = index($$0, ": "); printf "  %-16s %s\n", substr($$0, 4, i - 4), substr($$0, i + 2) }' $(MAKEFILE_LIST)
	@echo
	@echo "The exercises, from the repository root (go run ./tools/drill help says more):"
	@echo "  go run ./tools/drill exercises        every exercise, its kind and your status"
	@echo "  go run ./tools/drill start NAME       begin one: its chapter goes red"
	@echo "  go run ./tools/drill hint             stuck? one narrower hint per call"
	@echo "  go run ./tools/drill verify           grade it; once done, your solution is saved"
	@echo "  go run ./tools/drill reset NAME       the shipped code back, your work kept aside"
	@echo "  go run ./tools/drill progress         what you have done, chapter by chapter"
	@echo "  make grade                            every saved solution verified again, as CI does"

## test: the whole suite: every chapter, the mechanism, the tools.
test:
	$(GO) test ./...

## run: one experiment of the runner (see `go run ./tools/fencelab help`).
run:
	$(GO) run ./tools/fencelab claim

## vet: go vet and a gofmt check over the whole module.
vet:
	$(GO) vet ./...
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi

## check: the graded check: every documented weakening must be caught by its named tests.
# Caught verdicts are kept in chapters/weakening-verdicts/<chapter>.txt and
# reused while nothing the chapter is built from changed (its folder,
# internal/, the fencelab binaries, the shared helpers, go.mod): commit
# those files with the change. ARGS passes chapters and flags: --full
# judges everything again; CI runs make check ARGS="--sample 8", which
# judges 8 reused verdicts again at random (the seed is printed).
check:
	$(GO) run ./tools/drill check --update $(ARGS)

## mutate: every mutant of the mechanism and the runner killed by a test, or excused in writing.
# Mutants are generated from the Go and SQL of the packages the engine's
# declaration names (drill mutate -h lists its operators); excuses live in
# chapters/excused-mutants/<package>.txt. Each verdict is kept in
# chapters/mutant-verdicts/<package>.txt and reused while its key (the mutant,
# its function's source, its judges' tests, its excuse) holds, so only what
# changed is judged: commit those files with the change. ARGS passes packages
# and flags: make mutate ARGS="mailbox --survivors"; --full judges everything
# again; CI runs make mutate ARGS="--sample 8", which also judges 8 reused
# verdicts again at random (the seed is printed) and fails if one differs.
mutate:
	$(GO) run ./tools/drill mutate $(ARGS)

## race: the mechanism, the runner, the tooling's pool and the chapters of shared helpers under the race detector.
# The chapters are those whose tests share one helper between goroutines
# (the connection pool, the clock, identities: the shared-safely row of
# chapters/GUARANTEES.md). All nine chapters under -race take minutes;
# these three add about half a minute.
# Only packages with tests are named: a package without any would still be
# compiled under -race (etcd's server, for chapter 10's member, is minutes
# of CPU on a fresh machine) to run nothing. The engines of drill and
# drill mutate are left out: their only concurrency is the pool of
# internal/course/variant, raced here through variant, check and exercise,
# and their own tests are two minutes of builds under -race.
RACE_CHAPTERS := ./chapters/ch02_cas_claim/ ./chapters/ch03_leased_claim/ ./chapters/ch08_nested_claims/
RACE_SKIP := /internal/course/drill$$|/internal/course/mutate$$
race:
	$(GO) test -race $$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./internal/... | grep -Ev '$(RACE_SKIP)') $(RACE_CHAPTERS)

## prove-exercises: prove every exercise of the course, on a copy of the tree.
# Each exercise starts red for its stated reason, its reference repair is
# done, and a weak learner test scores below 100%. A proof that passed is
# kept in chapters/exercise-proofs.txt and reused while what it was proved
# from holds (its chapter, the code under internal/, go.mod): commit that
# file with the change. ARGS narrows it: ARGS="-proof.run fence" proves
# the exercises whose name holds "fence"; -proof.full proves every one
# again; CI runs ARGS="-proof.sample 2", which also proves two reused
# proofs again at random (the seed printed, -proof.seed S repeats it).
prove-exercises:
	$(GO) test -count=1 -timeout 60m -run '^TestEveryExerciseStartsRedAndItsReferenceIsDone$$' ./internal/course/exercise/ -proof -proof.update $(ARGS)

## journey: a learner's five exercises in a row, committed, then a clone graded.
journey:
	$(GO) test -count=1 -timeout 30m -run '^TestJourneyOfALearnerHoldsFromExerciseToExercise$$' ./internal/course/drill/ -journey

## grade: every saved solution verified again from its exercise's starting point.
# ARGS="--course DIR" grades against a clean clone of the course instead
# of this tree's own tests and tools (a fork's CI grades against a pinned
# release, MODULE@VERSION).
grade:
	$(GO) run ./tools/drill grade $(ARGS)

## bench: the cost of fencing, as the fenced cycle against the naive one in the same run.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./chapters/ch01_naive_claim/

## bench-peers: the fenced cycle against naive, goqite and a prepared floor, in one process.
# It prints µs per cycle and the ratios; goqite does not fence, and the floor is
# prepared one-statement transactions. It is a module of its own (tools/benchpeers),
# so the peer never enters the course's build. ARGS passes flags: make bench-peers
# ARGS=--json (the recipe is not echoed, so stdout is the JSON alone).
bench-peers:
	@cd tools/benchpeers && $(GO) run . $(ARGS)

## ch01 .. ch10: one chapter's tests, verbose, never from the cache.
$(CHAPTERS):
	$(GO) test -count=1 -v ./chapters/$@_*/
