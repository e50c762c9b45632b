# tpbisa: the two user-facing commands (make demo, make test) and their helpers.
SHELL := /bin/bash
BUILD ?= build
BUILD_SAN ?= build-san
FUZZ_SECONDS ?= 2
# fuzz_word over the operand formats' seeds (about fifty folders): make test runs it once over all of them
# (FUZZ_FORMATS=together, FUZZ_FORMAT_SECONDS in all), which replays every seed with one process start instead of
# fifty; make fuzz runs it once per format (FUZZ_FORMATS=each, FUZZ_FORMAT_SECONDS each).
FUZZ_FORMATS ?= together
FUZZ_FORMAT_SECONDS ?= 8
# The optimised tree's disassemble -> assemble property runs this many random words of each format on each
# generation in make test (its budget); the test binary's own default, 10^5, runs in make test-fast and make test-full.
ROUNDTRIP_WORDS ?= 10000
# The Python package is built for, and installed into a virtual environment of, the Debian interpreter (NumPy).
PYTHON ?= /usr/bin/python3
VENV ?= .venv
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# A new tree is generated for Ninja, which starts a target's compiles while the libraries it links are still being
# built (make waits for each target in turn); an existing tree keeps the generator it was made with.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)
# The project's own trees treat warnings as errors (TPBISA_WERROR; off by default for anyone else's build).
WERROR := -DTPBISA_WERROR=ON
# The optimised tree: -O2 as RelWithDebInfo, without the debug information (a quarter of the compile time).
OPT_CONFIG := -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" $(WERROR)
DEB_PACKAGES := cmake ninja-build g++ make clang clang-format-14 clang-tidy-14 libclang-rt-14-dev libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev libarchive-dev zlib1g-dev libmd-dev libhwy-dev libtbb-dev libopenblas-dev python3 \
  python3-dev python3-venv python3-setuptools python3-build pybind11-dev python3-pybind11 python3-numpy python3-pytest \
  python3-jsonschema python3-dask python3-distributed

.PHONY: all deps build build-for-test build-san demo python test test-full test-fast lint fuzz bench clean

all: build

# Install the Debian packages the build needs; as root via apt-get, otherwise print the line and stop.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing Debian packages; run:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: deps
	cmake -S . -B $(BUILD) $(call generator,$(BUILD)) $(OPT_CONFIG) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# What make test needs of the optimised tree (CMake target tpbisa_test_prerequisites): the tool, the Python module,
# the benchmarks (so they keep building) and the plain-build unit tests (tpbisa_plain_tests: the 10^7-word
# differential, the peak-RSS and no-allocation checks, the full-size property tests); the rest of the unit suite
# runs in the sanitized tree only, so the optimised tree does not compile it a second time.
build-for-test: deps
	cmake -S . -B $(BUILD) $(call generator,$(BUILD)) $(OPT_CONFIG) >/dev/null
	cmake --build $(BUILD) -j $(JOBS) --target tpbisa_test_prerequisites

# One clang tree under ASan+UBSan holds both the unit suite and the libFuzzer targets (see docs/robustness.md),
# the tests at -O0 (a few heavy ones at -O1, tests/CMakeLists.txt) and the library at -O1 (its SIMD kernels at -O2;
# its reports and JSON layer, io, at -O0: TPBISA_IO_FLAGS):
# the library is compiled once, with the fuzzer's coverage hooks, for both. The command-line scripts run in the
# optimised tree.
build-san: deps
	cmake -S . -B $(BUILD_SAN) $(call generator,$(BUILD_SAN)) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only" $(WERROR) -DTPBISA_LIBRARY_FLAGS=-O1 -DTPBISA_IO_FLAGS=-O0 -DTPBISA_FUZZ=ON -DTPBISA_BUILD_BENCH=OFF -DTPBISA_BUILD_CLI=OFF -DTPBISA_CLI_TESTS=OFF \
	  -DTPBISA_FUZZ_SECONDS=$(FUZZ_SECONDS) \
	  -DTPBISA_FUZZ_FORMAT_SECONDS=$(FUZZ_FORMAT_SECONDS) -DTPBISA_FUZZ_FORMATS=$(FUZZ_FORMATS) >/dev/null
	cmake --build $(BUILD_SAN) -j $(JOBS)

# The demo needs only the command line tool: the tests and benchmarks are not built.
demo: deps
	cmake -S . -B $(BUILD) $(call generator,$(BUILD)) $(OPT_CONFIG) >/dev/null
	cmake --build $(BUILD) -j $(JOBS) --target tpbisa_cli
	@scripts/demo.sh $(BUILD)/tpbisa

# The Python package, offline: build the extension, make a virtual environment of $(PYTHON) that sees its Debian
# packages (NumPy, setuptools), and pip-install the package into it with its metadata, reusing the extension just
# built (setup.py, TPBISA_CMAKE_BUILD_DIR; docs/python.md). Then: $(VENV)/bin/python -c 'import tpbisa'.
python: deps
	cmake -S . -B $(BUILD) $(call generator,$(BUILD)) $(OPT_CONFIG) -DTPBISA_BUILD_PYTHON=ON -DTPBISA_PYTHON_EXECUTABLE=$(PYTHON) >/dev/null
	cmake --build $(BUILD) -j $(JOBS) --target tpbisa_python
	$(PYTHON) -m venv --system-site-packages $(VENV)
	TPBISA_CMAKE_BUILD_DIR=$(abspath $(BUILD)) $(VENV)/bin/python -m pip install -q --no-index --no-build-isolation .
	cd / && $(abspath $(VENV))/bin/python -c 'import tpbisa; print("tpbisa", tpbisa.__version__, "installed in $(VENV)")'

# All tests: in the optimised tree the command-line scripts, goldens, hostile checks, the Python suite and a project
# built against the installed library; then, under ASan+UBSan, the unit suite, the format and layer checks and each
# fuzz target for FUZZ_SECONDS (docs/robustness.md). clang-tidy runs in make lint (about a minute of two cores, which
# make test's 12-minute budget does not have) and in make test-full.
test: build-for-test build-san
	cd $(BUILD) && TPBISA_ROUNDTRIP_WORDS=$(ROUNDTRIP_WORDS) ctest --output-on-failure -j $(JOBS) -E '^(unit\.shard[0-9]+|unit\.shared_data|format|tidy|layers)$$'
	cd $(BUILD_SAN) && ctest --output-on-failure -j $(JOBS) -E '^tidy$$'

# The checks that read the sources: clang-format and clang-tidy (scripts/check_tidy.sh), and the layer order.
lint: build-san
	cd $(BUILD_SAN) && ctest --output-on-failure -j $(JOBS) -R '^(format|tidy|layers)$$'

# make test at the sizes the properties were specified with (about half an hour on two cores): the round trip on
# 10^5 words of each format on each generation, and fuzz_word 10 s on each format apart; then make lint.
test-full:
	$(MAKE) test ROUNDTRIP_WORDS=100000 FUZZ_FORMATS=each FUZZ_FORMAT_SECONDS=10
	$(MAKE) lint FUZZ_FORMATS=each FUZZ_FORMAT_SECONDS=10

# Run every fuzz target longer, and fuzz_word on each format apart: make fuzz FUZZ_SECONDS=600 FUZZ_FORMAT_SECONDS=60
fuzz: FUZZ_FORMATS = each
fuzz: build-san
	cd $(BUILD_SAN) && ctest --output-on-failure -j $(JOBS) -R '^fuzz_'

# The optimised tree's whole suite (the unit tests too), for quick iterations.
test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/bench/tpbisa_bench

clean:
	rm -rf $(BUILD) $(BUILD_SAN) build-fuzz
