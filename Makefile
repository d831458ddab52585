# Quick start (Debian 12, as root):  make run   then   make test
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all deps build run test clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > $(BUILD).configure.log || { cat $(BUILD).configure.log; exit 1; }
	cmake --build $(BUILD) -j $(JOBS)

# Characterize this machine: machine model, chart, and a row in the results store.
run: build
	$(BUILD)/roofline bench --quick -o roofline-machine.json --svg roofline.svg

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
