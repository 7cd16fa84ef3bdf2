# maskclean: `make run` shows it working on the demo export, `make test` proves it.
# Both install what they need when it is missing: libcsv-dev, zlib1g-dev, libzstd-dev, libisal-dev,
# libyaml-dev and libmd-dev (make deps), and for the tests groff, zstd, libxml2-utils, chromium and postgresql
# too (make test-deps). `make dist` builds the binary that travels (the Swift runtime and the C
# libraries linked in, stripped; `make -s dist-path` prints its path) and packs it with the
# manual and the shell completions as a tarball, a Python wheel and a Debian package, with
# dist/SHA256SUMS; `make test-dist` installs each as a user would and runs the demo without the
# toolchain. `make install PREFIX=/usr/local` (and DESTDIR=…) installs the binary, the manual and
# the completions.

SWIFT       ?= swift
CONFIG      ?= release
BIN_DIR      = .build/$(CONFIG)
MASKCLEAN    = $(BIN_DIR)/maskclean
DEMO         = Fixtures/demo
DEMO_OUT     = demo-output
FUZZ_SECONDS ?= 60
PREFIX      ?= /usr/local

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

FUZZ_TARGETS = FuzzMask FuzzCSV FuzzJSON FuzzSpec FuzzYAMLSpec FuzzReport FuzzPhone

.PHONY: all deps test-deps build run test lint format bench bench-sweep bench-deps bench-peers build-bench fuzz build-fuzz sanitize sanitize-thread \
	sanitize-address dist dist-stage dist-tarball wheel deb dist-path test-dist check-reproducible spark-deps test-spark install clean

all: build

# Installs the Debian packages whose check (a shell test) fails: $(call install-missing,TEST PACKAGE ...)
define install-missing
	@missing=""; \
	$(1) \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

# What building needs. libcsv has no pkg-config file on Debian: look for its header, and zlib's
# and libzstd's (compressed inputs and outputs), and ISA-L's (its igzip inflate's types; the
# library, libisal2, which libisal-dev brings, is loaded at run time when present).
deps:
	$(call install-missing,[ -f /usr/include/csv.h ] || missing="$$missing libcsv-dev"; \
	[ -f /usr/include/zlib.h ] || missing="$$missing zlib1g-dev"; \
	[ -f /usr/include/zstd.h ] || missing="$$missing libzstd-dev"; \
	[ -f /usr/include/isa-l/igzip_lib.h ] || missing="$$missing libisal-dev"; \
	[ -f /usr/include/yaml.h ] || missing="$$missing libyaml-dev"; \
	[ -f /usr/include/sha2.h ] || missing="$$missing libmd-dev";)

# What the tests need besides: groff checks the manual, the zstd tool the compressed outputs,
# xmllint (libxml2-utils) the JUnit XML against its schema, Chromium renders the HTML report
# (headless), PostgreSQL loads the cleaned CSV with COPY (a throwaway server of the test's own; Debian
# puts initdb under /usr/lib/postgresql/VERSION/bin, not on the PATH), and cmarkgfm (GitHub's
# cmark-gfm, from PyPI into GFM_VENV, with python3-venv) renders the Markdown summary as GitHub
# does, and python-stdnum (from PyPI into ORACLE_VENV) is one of the independent implementations
# the column checks are tested against (Tests/Oracles/checks_oracle.py), as phonenumbers
# (libphonenumber's Python port, the version whose metadata Sources/MaskClean/Phone's numbering
# plan was generated from) is the phone columns' (Tests/Oracles/phone_oracle.py), and PyYAML
# (Debian's python3-yaml) the YAML spec reader's for plain scalars (YAMLResolverTests). Building or
# running the demo does not install them.
GFM_VENV          = .build/gfm-venv
CMARKGFM_VERSION  = 2025.10.22
ORACLE_VENV       = .build/oracle-venv
STDNUM_VERSION    = 2.2
PHONENUMBERS_VERSION = 9.0.35

test-deps: deps
	$(call install-missing,command -v groff >/dev/null 2>&1 || missing="$$missing groff"; \
	command -v zstd >/dev/null 2>&1 || missing="$$missing zstd"; \
	command -v xmllint >/dev/null 2>&1 || missing="$$missing libxml2-utils"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	python3 -c 'import venv; import ensurepip' 2>/dev/null || missing="$$missing python3-venv"; \
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || missing="$$missing python3-yaml";)
	@$(GFM_VENV)/bin/python -c 'import cmarkgfm' 2>/dev/null || { \
		echo "Installing cmarkgfm $(CMARKGFM_VERSION) into $(GFM_VENV)…"; \
		rm -rf $(GFM_VENV) && python3 -m venv $(GFM_VENV) && \
		$(GFM_VENV)/bin/pip install --quiet --disable-pip-version-check "cmarkgfm==$(CMARKGFM_VERSION)"; }
	@$(ORACLE_VENV)/bin/python -c 'import stdnum, phonenumbers, sys; \
		sys.exit(stdnum.__version__ != "$(STDNUM_VERSION)" or phonenumbers.__version__ != "$(PHONENUMBERS_VERSION)")' \
		2>/dev/null || { \
		echo "Installing python-stdnum $(STDNUM_VERSION) and phonenumbers $(PHONENUMBERS_VERSION) into $(ORACLE_VENV)…"; \
		rm -rf $(ORACLE_VENV) && python3 -m venv $(ORACLE_VENV) && \
		$(ORACLE_VENV)/bin/pip install --quiet --disable-pip-version-check "python-stdnum==$(STDNUM_VERSION)" \
			"phonenumbers==$(PHONENUMBERS_VERSION)"; }

build: deps
	$(SWIFT) build -c $(CONFIG) --product maskclean

# Runs the demo and exits 0 when it ran, even though the demo's data misses a threshold
# (maskclean itself then exits 1, which is the point of the demo).
run: build
	@mkdir -p $(DEMO_OUT)
	@echo "maskclean run $(DEMO)/spec.json $(DEMO)/customers.csv -o $(DEMO_OUT)/customers.clean.csv --report $(DEMO_OUT)/report.json --html $(DEMO_OUT)/report.html"
	@status=0; $(MASKCLEAN) run $(DEMO)/spec.json $(DEMO)/customers.csv \
		-o $(DEMO_OUT)/customers.clean.csv --report $(DEMO_OUT)/report.json \
		--html $(DEMO_OUT)/report.html || status=$$?; \
	if [ $$status -gt 1 ]; then exit $$status; fi; \
	echo; \
	echo "Cleaned records: $(DEMO_OUT)/customers.clean.csv"; \
	echo "Report:          $(DEMO_OUT)/report.json"; \
	echo "HTML report:     $(DEMO_OUT)/report.html (open it in a browser)"; \
	echo "maskclean exited $$status ($$( [ $$status = 0 ] && echo 'every threshold met' || echo 'a minComplete threshold was not met'))."

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) lint

SWIFT_SOURCES = Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Benchmarks Fuzz/Package.swift Fuzz/Targets

lint:
	$(SWIFT) format lint --strict --recursive $(SWIFT_SOURCES)

format:
	$(SWIFT) format --in-place --recursive $(SWIFT_SOURCES)

# The figures need GNU time (peak RSS, CPU time) and valgrind (instructions per row); the peers
# come from PyPI into bench-data/venv. BENCH_ARGS=--big-rows 5000000 (the default) also checks that
# memory stays flat on a 5M-row file (about 1.5 GB of data, made once).
BENCH_ARGS ?= --big-rows 5000000

bench-deps:
	@missing=""; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind"; \
	command -v gcc >/dev/null 2>&1 || missing="$$missing gcc"; \
	python3 -c 'import venv, ensurepip' 2>/dev/null || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi

bench: build bench-deps
	python3 bench/run.py --maskclean $(MASKCLEAN) $(BENCH_ARGS)
	cd Benchmarks && $(SWIFT) package benchmark --no-progress

# The jobs sweep alone (issue 32): wall, CPU, speed-up, memory and the serial fraction (the CPU
# time where no other worker can run, as maskclean --pipeline-times counts it) at each --jobs
# value, on the bench export SWEEP_COPIES times over. On 2 cores only the first values mean much.
JOBS_SWEEP   ?= 1,2,4,8,16
SWEEP_COPIES ?= 4
bench-sweep: build
	python3 bench/run.py --maskclean $(MASKCLEAN) --jobs-sweep $(JOBS_SWEEP) --copies $(SWEEP_COPIES) --repeat 3

# The phones section builds bench/peers/phone_peer.cc against Debian's libphonenumber-dev (issue 27).
bench-peers: build bench-deps
	@missing=""; \
	[ -f /usr/include/phonenumbers/phonenumberutil.h ] || missing="$$missing libphonenumber-dev"; \
	command -v g++ >/dev/null 2>&1 || missing="$$missing g++"; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi
	python3 bench/peers.py --maskclean $(MASKCLEAN)

# Benchmarks/ is a package of its own that nothing else builds: CI builds it (release, as `make
# bench` does) so that a change to the engine's API cannot break it unseen.
build-bench: deps
	$(SWIFT) build --package-path Benchmarks -c release --scratch-path .build-bench

# libFuzzer, each target for FUZZ_SECONDS (default 60): new inputs go to .build-fuzz/corpus,
# crashes to fuzz-artifacts/. Fuzz/Corpus holds the seeds.
fuzz: build-fuzz
	@mkdir -p fuzz-artifacts
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$target; \
		echo "== $$target, $(FUZZ_SECONDS) s"; \
		.build-fuzz/debug/$$target .build-fuzz/corpus/$$target Fuzz/Corpus/$$target \
			-max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -timeout=10 \
			-artifact_prefix=fuzz-artifacts/$$target- 2>&1 \
			| grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Precondition|Fatal" ; \
		if ls fuzz-artifacts/$$target-* >/dev/null 2>&1; then echo "$$target: finding in fuzz-artifacts/"; exit 1; fi; \
	done

# The fuzz targets, built only: CI builds them so that they cannot rot between fuzzing runs.
build-fuzz: deps
	cd Fuzz && $(SWIFT) build --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
		-Xswiftc -parse-as-library --scratch-path ../.build-fuzz

# The whole test suite under ThreadSanitizer, then AddressSanitizer with LeakSanitizer (the
# binary the end-to-end tests run is built with the same sanitizer). .lsan-suppressions lists the
# libraries' memory that is not ours to free.
sanitize: sanitize-thread sanitize-address

sanitize-thread: test-deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

sanitize-address: test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/.lsan-suppressions \
		$(SWIFT) test --sanitize=address --scratch-path .build-asan

# The binary that travels: a release build with the Swift runtime and FoundationEssentials linked
# in (--static-swift-stdlib) and libcsv, zlib, libzstd, libyaml and libmd taken from their static
# archives, stripped, so that it needs only the C runtime. The system library targets' module maps
# ask for -lcsv, -lz, -lzstd, -lyaml and -lmd, and the linker takes a .so over a .a in the same
# directory: DIST_LIBS holds only links to the .a files and comes first in the search path.
# VERSION is the one in Sources/MaskClean/Reports/ReportOrigin.swift (`maskcleanVersion`, which
# --version and every report print); `make dist` checks that the binary's --version says it.
#
# `make dist` stages that binary with the manual, the shell completions (which the binary writes:
# --generate-completion-script), README.md and LICENSE in DIST_DIR, and packs them three ways:
# the tarball, the wheel (make wheel, Tools/packaging/wheel.py) and the Debian package (make deb,
# Tools/packaging/deb.sh), then writes their SHA-256 sums to dist/SHA256SUMS. Each package is
# reproducible: its times are SOURCE_DATE_EPOCH (by default the last commit's), its owners root,
# its entries in a fixed order (docs/install.md).
ARCH         := $(shell uname -m)
MULTIARCH    := $(shell gcc -print-multiarch 2>/dev/null || echo $(ARCH)-linux-gnu)
STATIC_LIBS   = csv z zstd yaml md
VERSION      := $(shell sed -n 's/^public let maskcleanVersion = "\([^"]*\)".*/\1/p' Sources/MaskClean/Reports/ReportOrigin.swift | head -n 1)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH
# The binary's bytes depend on where its sources are: Swift writes each source file's absolute
# path into its checks that a closure did not escape. So that every checkout of a commit builds
# the same bytes, the sources are copied to one fixed path, DIST_ROOT, and built there (keep it,
# to get the same bytes; two checkouts building at once need two DIST_ROOTs). DIST_ROOT also
# holds the build. Swift's per-object module hashes, which differ from build to build, are
# zeroed in the stripped binary and its build ID set from what is left
# (Tools/packaging/normalize-binary.py).
DIST_ROOT    ?= /tmp/maskclean-dist-build
DIST_SOURCE   = $(DIST_ROOT)/source
DIST_SCRATCH  = $(DIST_ROOT)/build
DIST_LIBS     = $(DIST_ROOT)/static-libs
DIST_NAME     = maskclean-$(VERSION)-linux-$(ARCH)
DIST_DIR      = dist/$(DIST_NAME)
DIST_TARBALL  = dist/$(DIST_NAME).tar.gz
DIST_BIN      = $(DIST_DIR)/bin/maskclean
# Where each shell looks for completions under a prefix (Debian's package puts zsh's in
# share/zsh/vendor-completions instead, where Debian's zsh looks).
BASH_COMPLETION = share/bash-completion/completions/maskclean
ZSH_COMPLETION  = share/zsh/site-functions/_maskclean
FISH_COMPLETION = share/fish/vendor_completions.d/maskclean.fish

dist: dist-tarball wheel deb
	cd dist && sha256sum $(DIST_NAME).tar.gz maskclean-$(VERSION)-py3-none-*.whl \
		maskclean_$(VERSION)_*.deb >SHA256SUMS
	@cat dist/SHA256SUMS

dist-stage: deps
	@# DIST_ROOT is a fixed path in /tmp by default: on a shared machine another user could make
	@# it first, or a link to a place rm -rf would empty. Refuse a link and a directory of another
	@# user's; make it ours alone.
	@if [ -L "$(DIST_ROOT)" ] || { [ -e "$(DIST_ROOT)" ] && [ "$$(stat -c %u "$(DIST_ROOT)")" != "$$(id -u)" ]; }; then \
		echo "dist: $(DIST_ROOT) is a link or another user's: not building there (set DIST_ROOT)" >&2; exit 1; \
	fi
	@mkdir -p -m 700 $(DIST_ROOT)
	@rm -rf $(DIST_SOURCE) $(DIST_LIBS) && mkdir -p $(DIST_SOURCE) $(DIST_LIBS)
	cp -a Package.swift Sources Tests $(DIST_SOURCE)/
	@# The dependencies' versions this checkout resolved, when it has (never committed).
	@[ ! -f Package.resolved ] || cp -a Package.resolved $(DIST_SOURCE)/
	@for lib in $(STATIC_LIBS); do \
		archive=/usr/lib/$(MULTIARCH)/lib$$lib.a; \
		[ -f $$archive ] || { echo "dist: $$archive is missing (make deps installs it)" >&2; exit 1; }; \
		ln -s $$archive $(DIST_LIBS)/lib$$lib.a; \
	done
	cd $(DIST_SOURCE) && $(SWIFT) build -c release --product maskclean --scratch-path $(DIST_SCRATCH) \
		--static-swift-stdlib -Xlinker -L$(DIST_LIBS)
	@built=$$($(DIST_SCRATCH)/release/maskclean --version); \
	if [ "$$built" != "$(VERSION)" ]; then \
		echo "dist: the binary says version '$$built', ReportOrigin.swift '$(VERSION)'" >&2; exit 1; \
	fi
	@rm -rf $(DIST_DIR)
	install -d $(DIST_DIR)/bin $(DIST_DIR)/share/man/man1 $(dir $(DIST_DIR)/$(BASH_COMPLETION)) \
		$(dir $(DIST_DIR)/$(ZSH_COMPLETION)) $(dir $(DIST_DIR)/$(FISH_COMPLETION))
	install -m 755 $(DIST_SCRATCH)/release/maskclean $(DIST_BIN)
	strip $(DIST_BIN)
	python3 Tools/packaging/normalize-binary.py $(DIST_BIN)
	install -m 644 man/maskclean.1 $(DIST_DIR)/share/man/man1/maskclean.1
	$(DIST_BIN) --generate-completion-script bash >$(DIST_DIR)/$(BASH_COMPLETION)
	$(DIST_BIN) --generate-completion-script zsh >$(DIST_DIR)/$(ZSH_COMPLETION)
	$(DIST_BIN) --generate-completion-script fish >$(DIST_DIR)/$(FISH_COMPLETION)
	install -m 644 README.md LICENSE $(DIST_DIR)/
	@find $(DIST_DIR) -type f ! -path '*/bin/*' -exec chmod 644 {} +

dist-tarball: dist-stage
	@rm -f $(DIST_TARBALL)
	tar -C dist --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(SOURCE_DATE_EPOCH) \
		--mode=u+rwX,go=rX --format=gnu -cf - $(DIST_NAME) | gzip -9n >$(DIST_TARBALL).partial
	mv $(DIST_TARBALL).partial $(DIST_TARBALL)
	@echo "$(DIST_TARBALL)"

# dist/maskclean-VERSION-py3-none-manylinux_2_NN_ARCH.whl: see Tools/packaging/wheel.py.
wheel: dist-stage
	@rm -f dist/maskclean-$(VERSION)-py3-none-*.whl
	python3 Tools/packaging/wheel.py --stage $(DIST_DIR) --version $(VERSION) --out dist

# dist/maskclean_VERSION_ARCH.deb: see Tools/packaging/deb.sh (dpkg-deb, and dpkg-shlibdeps from
# dpkg-dev for Depends).
deb: dist-stage
	$(call install-missing,command -v dpkg-shlibdeps >/dev/null 2>&1 || missing="$$missing dpkg-dev";)
	@rm -f dist/maskclean_$(VERSION)_*.deb
	Tools/packaging/deb.sh $(DIST_DIR) $(VERSION) dist

# The unpacked binary's path, for scripts that ship it (make -s dist-path).
dist-path:
	@echo $(CURDIR)/$(DIST_BIN)

# Checks each package as a user installs it, with nothing of the toolchain reachable: the tarball
# (only the C runtime in ldd; the demo run gives what the debug build's run gives; make install),
# the wheel (pip install with no network into a fresh virtual environment), the Debian package
# (lintian, and the package unpacked into a scratch root), the GitHub Action and the GitLab CI
# template (their steps run as a runner would, on a passing and a failing export), and that a
# second packing of the same binary gives the same bytes. lintian and PyYAML (to read action.yml)
# come from Debian.
test-dist: dist
	$(call install-missing,python3 -c 'import venv; import ensurepip' 2>/dev/null || missing="$$missing python3-venv"; \
	command -v lintian >/dev/null 2>&1 || missing="$$missing lintian"; \
	python3 -c 'import yaml' 2>/dev/null || missing="$$missing python3-yaml";)
	$(SWIFT) build --product maskclean
	Tests/dist/check-dist.sh $(DIST_TARBALL) .build/debug/maskclean
	Tests/dist/check-wheel.sh dist/SHA256SUMS .build/debug/maskclean
	Tests/dist/check-deb.sh dist/SHA256SUMS .build/debug/maskclean
	Tests/dist/check-ci-templates.py dist/SHA256SUMS
	Tests/dist/check-reproducible.sh dist/SHA256SUMS

# Two clones of the commit, built from nothing in directories of different names, give the same
# SHA256SUMS (two release builds: not part of test-dist).
check-reproducible:
	Tests/dist/check-reproducible.sh --from-scratch

# The Spark example (examples/spark) on a local Spark: PySpark from PyPI into SPARK_VENV when it is
# missing (with its SQL extras, pyarrow and pandas, for mapInArrow; pandas 3 it does not support
# yet), and Java 17 (Debian's openjdk-17-jre-headless) when no Java 17 or later is installed.
# test_maskclean_spark.py ships the binary that travels (make dist) and compares every Spark run
# with one run of that binary over the same file.
SPARK_VENV      = .build/spark-venv
PYSPARK_VERSION = 4.3.0
SPARK_MASKCLEAN = $(DIST_BIN)

spark-deps:
	$(call install-missing,python3 -c 'import venv; import ensurepip' 2>/dev/null || missing="$$missing python3-venv"; \
	java_major=$$(java -version 2>&1 | sed -n 's/.* version "\([0-9]*\).*/\1/p' | head -n 1); \
	[ "$${java_major:-0}" -ge 17 ] || missing="$$missing openjdk-17-jre-headless";)
	@$(SPARK_VENV)/bin/python -c 'import pyspark, pyarrow, pandas' 2>/dev/null || { \
		echo "Installing PySpark $(PYSPARK_VERSION) (with pyarrow and pandas) into $(SPARK_VENV)…"; \
		rm -rf $(SPARK_VENV) && python3 -m venv $(SPARK_VENV) && \
		$(SPARK_VENV)/bin/pip install --quiet --disable-pip-version-check \
			"pyspark[sql]==$(PYSPARK_VERSION)" "pandas<3"; }

test-spark: dist-stage spark-deps
	$(SPARK_VENV)/bin/python examples/spark/test_maskclean_spark.py --maskclean $(SPARK_MASKCLEAN)

# Installs the portable binary (the one `make dist` packs), the manual and the shell completions
# under $(DESTDIR)$(PREFIX).
install: dist-stage
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(dir $(DESTDIR)$(PREFIX)/$(BASH_COMPLETION)) $(dir $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETION)) \
		$(dir $(DESTDIR)$(PREFIX)/$(FISH_COMPLETION))
	install -m 755 $(DIST_BIN) $(DESTDIR)$(PREFIX)/bin/maskclean
	install -m 644 man/maskclean.1 $(DESTDIR)$(PREFIX)/share/man/man1/maskclean.1
	install -m 644 $(DIST_DIR)/$(BASH_COMPLETION) $(DESTDIR)$(PREFIX)/$(BASH_COMPLETION)
	install -m 644 $(DIST_DIR)/$(ZSH_COMPLETION) $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETION)
	install -m 644 $(DIST_DIR)/$(FISH_COMPLETION) $(DESTDIR)$(PREFIX)/$(FISH_COMPLETION)

clean:
	rm -rf .build .build-* $(DEMO_OUT) bench-data dist $(DIST_ROOT)
