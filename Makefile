# Quick start (Debian 12, as root):  make run   then   make test
BUILD ?= build
JOBS ?= $(shell nproc)
# Unity builds (CMake batches of 8 sources a translation unit): the tool and its tests compile in
# about 9 CPU-minutes instead of 25, which is most of make run's time on a fresh 2-core machine.
# Two files of one layer (or of the tests) may not both define the same name in an anonymous
# namespace: the build says so. UNITY=OFF builds file by file (quicker to rebuild one file).
UNITY ?= ON

.PHONY: all deps deps-run build build-tool run test package install clean test-sanitize fuzz-build fuzz-smoke fuzz-soak fuzz-coverage

all: build

deps:
	@bash scripts/install-deps.sh

deps-run:
	@bash scripts/install-deps.sh run

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DROOFLINE_WITH_TESTS=ON -DCMAKE_UNITY_BUILD=$(UNITY) > $(BUILD).configure.log || { cat $(BUILD).configure.log; exit 1; }
	cmake --build $(BUILD) -j $(JOBS)

# The tool alone (no test suite, none of the tests' packages): what make run needs. A build
# directory configured before keeps its settings, tests included.
build-tool: deps-run
	@if [ -f $(BUILD)/CMakeCache.txt ]; then cmake -S . -B $(BUILD) -DCMAKE_UNITY_BUILD=$(UNITY) > $(BUILD).configure.log; \
	 else cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DROOFLINE_WITH_TESTS=OFF -DCMAKE_UNITY_BUILD=$(UNITY) > $(BUILD).configure.log; fi \
	 || { cat $(BUILD).configure.log; exit 1; }
	cmake --build $(BUILD) -j $(JOBS)

# Characterize this machine: machine model, chart, and a row in the results store.
run: build-tool
	$(BUILD)/roofline bench --quick -o roofline-machine.json --svg roofline.svg

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The Debian package of the tool and its marker library: $(BUILD)/roofline_<version>_amd64.deb
# (apt-get install ./$(BUILD)/roofline_*.deb). README, "Install".
package: build
	cd $(BUILD) && cpack -G DEB

# Install into PREFIX (default /usr/local); the tree is relocatable. The tool as make run built
# it (build-tool): installing needs none of the tests' packages.
PREFIX ?= /usr/local
install: build-tool
	cmake --install $(BUILD) --prefix $(PREFIX)

# ASan + UBSan build of the whole suite (docs/DEVELOPING.md, "Sanitizers and fuzzing"); the tests that
# run Valgrind show as skipped. Sanitizer reports also land in $(ASAN_BUILD)/sanitizer-logs/.
ASAN_BUILD ?= build-asan
test-sanitize: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
	  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" -DROOFLINE_SANITIZE=ON -DCMAKE_UNITY_BUILD=$(UNITY) > $(ASAN_BUILD).configure.log || { cat $(ASAN_BUILD).configure.log; exit 1; }
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	bash tests/sanitize/run.sh $(ASAN_BUILD) $(JOBS)

# libFuzzer targets of tests/fuzz (clang), each run FUZZ_SECONDS over its corpus;
# a crash, sanitizer report, leak, timeout or OOM fails, its input saved in $(FUZZ_BUILD)/crashes/<name>/.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
fuzz-build: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
	  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" -DROOFLINE_FUZZ=ON -DROOFLINE_WITH_TESTS=OFF -DCMAKE_UNITY_BUILD=$(UNITY) > $(FUZZ_BUILD).configure.log || { cat $(FUZZ_BUILD).configure.log; exit 1; }
	cmake --build $(FUZZ_BUILD) --target fuzz_targets -j $(JOBS)

fuzz-smoke: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) bash tests/fuzz/smoke.sh $(FUZZ_BUILD)

# The long runs before a release: each target until it has used FUZZ_CPU_SECONDS of CPU
# (default an hour); one line per target in $(FUZZ_BUILD)/fuzz-logs/soak.tsv.
FUZZ_CPU_SECONDS ?= 3600
fuzz-soak: fuzz-build
	FUZZ_CPU_SECONDS=$(FUZZ_CPU_SECONDS) bash tests/fuzz/soak.sh $(FUZZ_BUILD) $(FUZZ_TARGETS)

# Line, function and region coverage of each parser reached by the fuzz corpora (seeds plus what
# the runs in $(FUZZ_BUILD) grew), from a coverage build of the targets in $(FUZZ_COV_BUILD).
FUZZ_COV_BUILD ?= build-fuzz-cov
fuzz-coverage: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_COV_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
	  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" -DROOFLINE_FUZZ=ON -DROOFLINE_FUZZ_COVERAGE=ON -DROOFLINE_WITH_TESTS=OFF > $(FUZZ_COV_BUILD).configure.log || { cat $(FUZZ_COV_BUILD).configure.log; exit 1; }
	cmake --build $(FUZZ_COV_BUILD) --target fuzz_targets -j $(JOBS)
	bash tests/fuzz/coverage.sh $(FUZZ_COV_BUILD) $(FUZZ_BUILD) $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(FUZZ_COV_BUILD)
