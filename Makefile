# maskclean: `make run` shows it working on the demo export, `make test` proves it.
# Both install what they need (libcsv-dev) when it is missing.

SWIFT       ?= swift
CONFIG      ?= release
BIN_DIR      = .build/$(CONFIG)
MASKCLEAN    = $(BIN_DIR)/maskclean
DEMO         = Fixtures/demo
DEMO_OUT     = demo-output
FUZZ_SECONDS ?= 60
PREFIX      ?= /usr/local

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test lint format bench fuzz sanitize install clean

all: build

# libcsv has no pkg-config file on Debian: look for its header.
deps:
	@if [ ! -f /usr/include/csv.h ]; then \
		echo "Installing libcsv-dev…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libcsv-dev; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG) --product maskclean

# Runs the demo and exits 0 when it ran, even though the demo's data misses a threshold
# (maskclean itself then exits 1, which is the point of the demo).
run: build
	@mkdir -p $(DEMO_OUT)
	@echo "maskclean run $(DEMO)/spec.json $(DEMO)/customers.csv -o $(DEMO_OUT)/customers.clean.csv --report $(DEMO_OUT)/report.json"
	@status=0; $(MASKCLEAN) run $(DEMO)/spec.json $(DEMO)/customers.csv \
		-o $(DEMO_OUT)/customers.clean.csv --report $(DEMO_OUT)/report.json || status=$$?; \
	if [ $$status -gt 1 ]; then exit $$status; fi; \
	echo; \
	echo "Cleaned records: $(DEMO_OUT)/customers.clean.csv"; \
	echo "Report:          $(DEMO_OUT)/report.json"; \
	echo "maskclean exited $$status ($$( [ $$status = 0 ] && echo 'every threshold met' || echo 'a minComplete threshold was not met'))."

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) lint

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Benchmarks

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Benchmarks

bench: build
	python3 bench/run.py --maskclean $(MASKCLEAN)
	cd Benchmarks && $(SWIFT) package benchmark --no-progress

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(MASKCLEAN) $(DESTDIR)$(PREFIX)/bin/maskclean
	install -m 644 man/maskclean.1 $(DESTDIR)$(PREFIX)/share/man/man1/maskclean.1

clean:
	rm -rf .build .build-* $(DEMO_OUT) bench-data
