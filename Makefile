# AccessDeck — the two commands a fresh machine needs are `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
BIN := .build/debug/accessdeck
RELEASE_BIN := .build/release/accessdeck
ARGS ?=

# Debian packages the build and the tests need, and a file each one installs. chromium and the colour emoji
# font: ExportBrowserTests draws the exports in a browser; ffmpeg, and Pillow with libraqm for colour flags: the
# PNG stills and the GIF, MP4 and WebM films (issue 50). unzip: ZipArchiveTests check our bug report zips with
# Info-ZIP's own reader (issue 51 item 5).
DEB_PACKAGES := libncurses-dev:/usr/include/ncursesw/curses.h libsqlite3-dev:/usr/include/sqlite3.h tmux:/usr/bin/tmux \
  librsvg2-bin:/usr/bin/rsvg-convert libqrencode-dev:/usr/include/qrencode.h zbar-tools:/usr/bin/zbarimg \
  oathtool:/usr/bin/oathtool chromium:/usr/bin/chromium \
  fonts-noto-color-emoji:/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ffmpeg:/usr/bin/ffmpeg \
  python3-pil:/usr/lib/python3/dist-packages/PIL/__init__.py libraqm0:/usr/share/doc/libraqm0/copyright \
  unzip:/usr/bin/unzip
# valgrind: the per-request instruction counts beside the req/s ratio (scripts/bench-instructions.sh).
BENCH_PACKAGES := wrk:/usr/bin/wrk valgrind:/usr/bin/valgrind
# The benchmark's Flask+gunicorn peer (scripts/bench/peer_app.py), from PyPI into .venv/.
PEER_PYPI := flask==3.1.3 gunicorn==23.0.0
# make generate's scripts (generate-glue.py and the contract scripts read openapi.yaml).
GENERATE_PYPI := pyyaml==6.0.2
# The tests' independent implementations: Yubico's python-fido2 checks our WebAuthn code (issue 53).
TEST_PYPI := fido2==2.2.1

.PHONY: all deps test-pypi bench-deps bench-peer build run serve test test-swift contract generate lint format bench soak countries common-passwords clean

all: build

# Installs what is missing when it can (root + apt-get), otherwise stops with the command to run.
define ensure_packages
	@missing=""; for pair in $(1); do pkg=$${pair%%:*}; file=$${pair#*:}; \
	  [ -e "$$file" ] || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
	      || { echo "apt-get failed; run: sudo apt-get install -y$$missing" >&2; exit 1; }; \
	  else echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; fi; \
	fi
endef

deps:
	$(call ensure_packages,$(DEB_PACKAGES))

bench-deps: deps bench-peer
	$(call ensure_packages,$(BENCH_PACKAGES))

bench-peer:
	@[ -x .venv/bin/python ] || python3 -m venv .venv
	@.venv/bin/python -c 'import flask, gunicorn' 2>/dev/null || \
	  .venv/bin/pip install --quiet --disable-pip-version-check $(PEER_PYPI)

build: deps
	$(SWIFT) build

# The app on the embedded reference backend; extra flags through ARGS="--scenario phone-only".
run: build
	$(BIN) $(ARGS)

# The reference backend alone; ARGS="--port 8080 --db state.sqlite" and so on.
serve: build
	$(BIN) serve $(ARGS)

test: deps test-pypi lint build test-swift contract

test-pypi:
	@[ -x .venv/bin/python ] || python3 -m venv .venv
	@.venv/bin/python -c 'import fido2' 2>/dev/null || \
	  .venv/bin/pip install --quiet --disable-pip-version-check $(TEST_PYPI)

# Unit, snapshot, backend (real HTTP on 127.0.0.1) and end-to-end (the binary in tmux) suites. The
# tmux walks run on their own afterwards: they wait on the terminal synchronously, and beside the
# in-process servers they could hold every thread of the 2-core machine's pool for longer than a
# client's 10 s timeout. For the same reason the backend's and conform's suites (hundreds of in-process servers)
# each run apart: all at once, a full run held requests past that timeout. The refused-port faults run alone:
# while a backend's port is closed, another test's backend can be given that port number. The slow-client
# suite runs alone too: beside six hundred other backend tests on two cores, the closes it waits for came
# later than the 20 s it waits (CI, and reproduced here every time; alone it passes in 8 s). Why the
# connections' clocks fire so late under that load is not yet understood.
test-swift: build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip EndToEndTests --skip AccessBackendTests --skip AccessConformTests
	$(SWIFT) test --skip-build --filter AccessBackendTests --skip FaultInjectionTests --skip SlowClientTests
	$(SWIFT) test --skip-build --filter FaultInjectionTests
	$(SWIFT) test --skip-build --filter SlowClientTests
	$(SWIFT) test --skip-build --filter AccessConformTests
	$(SWIFT) test --skip-build --filter EndToEndTests

# schemathesis against `accessdeck serve` and Sources/AccessAPI/openapi.yaml.
contract: build
	scripts/contract-test.sh

# Regenerates Sources/AccessAPI/GeneratedSources after an edit of openapi.yaml (commit the result). Its
# scripts read YAML: PyYAML from PyPI into .venv/, first on their PATH.
generate:
	@[ -x .venv/bin/python ] || python3 -m venv .venv
	@.venv/bin/python -c 'import yaml' 2>/dev/null || \
	  .venv/bin/pip install --quiet --disable-pip-version-check $(GENERATE_PYPI)
	PATH="$(CURDIR)/.venv/bin:$$PATH" scripts/generate-openapi.sh

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

format:
	$(SWIFT) format format --in-place --recursive Sources Tests Package.swift

# Prints figures; asserts nothing.
bench: bench-deps
	$(SWIFT) build -c release
	.build/release/accessdeck-bench
	.build/release/accessdeck-bench worlds
	.build/release/accessdeck-bench proxy
	scripts/bench-backend.sh $(RELEASE_BIN)
	scripts/bench-address-timing.sh $(RELEASE_BIN)
	scripts/bench/pipeliners.py $(RELEASE_BIN)
	scripts/bench/terminal.py $(RELEASE_BIN)
	ACCESSDECK_BIN=$(RELEASE_BIN) scripts/bench-idle.sh
	scripts/bench-conform.sh $(RELEASE_BIN)

# 10,000 random keys, pastes and resizes per scenario into one process of the binary in tmux, scenarios
# switched live through the palette; prints figures (RSS after the first scenario and after the last), exits 1
# on a crash, a blank screen or a failed switch. Not part of `make test`. SOAK_BIN=.build/release/accessdeck to soak a
# release build (after `swift build -c release`); SOAK_ARGS="--keys 2000 --scenario default".
SOAK_BIN ?= $(BIN)
SOAK_ARGS ?=
soak: build
	scripts/soak.py --binary $(SOAK_BIN) $(SOAK_ARGS)

# Regenerates Sources/AccessCore/CountryTable.swift from PyPI's phonenumbers and
# pycountry, pinned so the same table comes out; installed into .venv, then run offline.
COUNTRY_PACKAGES := phonenumbers==9.0.43 pycountry==26.2.16
countries:
	[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/python -m pip install -q $(COUNTRY_PACKAGES)
	.venv/bin/python scripts/generate-countries.py

# Regenerates Sources/AccessCore/Resources/common-passwords.txt from the list inside PyPI's
# Django (CommonPasswordValidator's), pinned so the same list comes out; installed into .venv.
PASSWORD_PACKAGES := django==5.2.19
common-passwords:
	[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/python -m pip install -q $(PASSWORD_PACKAGES)
	.venv/bin/python scripts/generate-common-passwords.py

clean:
	rm -rf .build
