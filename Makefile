# The two commands: `make run` and `make test`. Everything else is a helper.
SHELL := /bin/bash
BUILD_DIR ?= build
EXAMPLE ?= resources/examples/triage.team.json
JOBS ?= $(shell nproc)
# ccache hits across clones in different folders (CI builds a fresh clone).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all deps configure build run test sanitize asan tsan fuzz package format tidy clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset default >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	@bash scripts/run.sh "$(BUILD_DIR)" "$(EXAMPLE)"

test: build
	@cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build build-asan -j $(JOBS) --target core_tests
	@ctest --preset asan -j $(JOBS)

tsan: deps
	@cmake --preset tsan >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target core_tests
	@ctest --preset tsan -j $(JOBS)

sanitize: asan tsan

# libFuzzer on every reader of untrusted bytes (docs/fuzzing.md): clang, core
# only, each target for FUZZ_SECONDS; FUZZ_TARGETS="team sseparser" picks some.
FUZZ_SECONDS ?= 30
FUZZ_TARGETS ?=
fuzz: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_targets
	@bash scripts/fuzz.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

package: build
	@cd $(BUILD_DIR) && cpack
	@ls -1 $(BUILD_DIR)/conclave_*.deb $(BUILD_DIR)/conclave-*.tar.gz

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

tidy: configure
	@git ls-files 'core/*.cpp' | xargs clang-tidy -p $(BUILD_DIR) --quiet

clean:
	@rm -rf build build-asan build-tsan build-debug build-fuzz
