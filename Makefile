# The two set-up commands (see README): `make demo` runs the main job against the bundled demo backend,
# `make test` runs every test suite. Both install the Debian packages they need first.

SWIFT_WARNINGS := -Xswiftc -warnings-as-errors

.PHONY: deps build release test test-swift test-js test-dev-server demo bench clean

deps:
	@scripts/ensure-deps.sh

build: deps
	swift build $(SWIFT_WARNINGS)

release: deps
	swift build -c release --product sclm $(SWIFT_WARNINGS)

test: deps test-swift test-js test-dev-server

# The Chromium suites (tag `chromium`: sclm play, validate --render) need the browser, so it is installed first.
test-swift:
	scripts/ensure-deps.sh chromium
	swift build --build-tests $(SWIFT_WARNINGS)
	swift test --skip-build

test-js:
	@if [ -d bridge-js ]; then scripts/ensure-deps.sh chromium || echo "chromium could not be installed: the browser test will be skipped" >&2; node --test bridge-js/; fi

test-dev-server:
	@if [ -d dev-server/tests ]; then python3 -m unittest discover -s dev-server/tests -t dev-server -v; fi

demo: release
	@scripts/demo.sh

bench: deps
	@scripts/ensure-deps.sh libarchive-tools
	python3 bench/run.py

clean:
	swift package clean
