# The two set-up commands (see README): `make demo` runs the main job against the bundled demo backend,
# `make test` runs every test suite. Both install the Debian packages they need first.

SWIFT_WARNINGS := -Xswiftc -warnings-as-errors

.PHONY: deps build release samples test lint-sql test-swift test-js test-dev-server demo bench clean

deps:
	@scripts/ensure-deps.sh

build: deps
	swift build $(SWIFT_WARNINGS)

release: deps
	swift build -c release --product sclm $(SWIFT_WARNINGS)

# The demo decks, complete: sample-content/ keeps each file once (a deck's own files; js/deck.js in
# sample-content/shared/, js/storyclm.js in bridge-js/) and this assembles self-contained decks into
# .build/sample-content/, which the dev-server serves and the tests read. Fast and idempotent; the
# dev-server and the test helpers run the same script themselves, so `swift test` alone works too.
samples:
	@python3 sample-content/tools/assemble.py

test: deps samples lint-sql test-swift test-js test-dev-server

# SQL only in the files that own the tables (ARCHITECTURE.md, "Tables and their owners").
lint-sql:
	@scripts/lint-sql.sh

test-swift:
	swift build --build-tests $(SWIFT_WARNINGS)
	swift test --skip-build

test-js:
	@if [ -d bridge-js ]; then scripts/ensure-deps.sh chromium || echo "chromium could not be installed: the browser test will be skipped" >&2; node --test bridge-js/; fi

test-dev-server:
	@if [ -d dev-server/tests ]; then python3 -m unittest discover -s dev-server/tests -t dev-server -v; fi

demo: release samples
	@scripts/demo.sh

bench: deps
	@scripts/ensure-deps.sh libarchive-tools
	python3 bench/run.py

clean:
	swift package clean
