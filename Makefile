# fencelab: the targets a learner and CI use. Every target is a plain go
# command; read the recipe to see what it runs.

GO ?= go
CHAPTERS := ch01 ch02 ch03 ch04 ch05 ch06 ch07 ch08 ch09

.PHONY: test run vet check exercises bench bench-peers fmt $(CHAPTERS)

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
check:
	$(GO) run ./tools/drill check

## exercises: the proof of every exercise, on a copy of the tree: each starts red for its
## stated reason, its reference repair is done, a weak learner test scores below 100%.
exercises:
	$(GO) test -count=1 -timeout 60m -run '^TestEveryExerciseStartsRedAndItsReferenceIsDone$$' ./internal/course/exercise/ -proof

## bench: the cost of fencing, as the fenced cycle against the naive one in the same run.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./chapters/ch01_naive_claim/

## bench-peers: the fenced cycle against the naive one, goqite (which does not fence) and a
## floor of prepared one-statement transactions, in one process: µs per cycle and ratios.
## It is a module of its own (tools/benchpeers), so the peer never enters the course's
## build. ARGS passes flags: make bench-peers ARGS=--json (the recipe is not echoed, so
## stdout is the JSON alone).
bench-peers:
	@cd tools/benchpeers && $(GO) run . $(ARGS)

## ch01 .. ch09: one chapter's tests, verbose, never from the cache.
$(CHAPTERS):
	$(GO) test -count=1 -v ./chapters/$@_*/
