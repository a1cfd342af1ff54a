# SPDX-License-Identifier: GPL-2.0-only
#
# devpm - device power-management tests for Linux.
#
#   make            build build/devpm, build/libdevpm.a and build/suites/*/*
#   make check      unit tests (ASan+UBSan), checkpatch, result formats,
#                   the kselftest tree, fuzzing (bounded), the Debian
#                   package, then every suite in QEMU
#   make fuzz       the libFuzzer harnesses, FUZZ_TIME seconds each (clang)
#   make qemu       build the QEMU image and run every suite in it (SUITES=...)
#   make deps       install missing Debian packages (root) or print the line
#   make fixtures   fixtures/devpm_mock/devpm_mock.ko against KDIR
#   make install    PREFIX=/usr/local [DESTDIR=...]
#   make install INSTALL_PATH=DIR
#                   a kselftest tree: DIR/run_kselftest.sh runs the programs
#   make emit_tests, make run_tests
#                   the kselftest lib.mk targets (COLLECTION=devpm:
#                   run_kselftest.sh -c devpm runs every suite)

CC		?= cc
PKG_CONFIG	?= pkg-config
SOAK_RUNS	?= 10
SOAK_HOG	?= 1
SOAK_LOCK	?=
O		:= build
KSRC		?=
PREFIX		?= /usr/local
# kselftest's name for the install root: given on the command line (as
# kselftest's Makefile does), `make install` writes a kselftest tree there
# instead of a PREFIX install.  From the environment it is ignored: the
# kernel's own `make install` reads INSTALL_PATH (/boot) too.
ifneq ($(origin INSTALL_PATH),command line)
INSTALL_PATH	:=
endif
COLLECTION	?= devpm

# Headers of the kselftest harness and checkpatch.pl come from a kernel
# tree: KSRC, else Debian's linux-source-6.1, unpacked once into build/.
LINUX_SOURCE_TAR ?= /usr/src/linux-source-6.1.tar.xz
ifeq ($(KSRC),)
KTREE		:= $(O)/linux-source
KTREE_STAMP	:= $(KTREE)/.unpacked
else
KTREE		:= $(KSRC)
KTREE_STAMP	:=
endif
KSFT		:= $(KTREE)/tools/testing/selftests
CHECKPATCH	:= $(KTREE)/scripts/checkpatch.pl
# The kernel's KTAP parser (kunit.py parse): results.ktap must satisfy it.
KUNIT		:= $(KTREE)/tools/testing/kunit

PKGS		:= libpci libusb-1.0 libevdev
PKG_CFLAGS	= $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	= $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARN		:= -Wall -Wextra -Werror -Wno-format-truncation
BASE_CFLAGS	:= -std=gnu11 -D_GNU_SOURCE $(WARN) -g -Ilib
CFLAGS		?= -O2
ALL_CFLAGS	= $(BASE_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -isystem $(KSFT)
SAN_CFLAGS	= $(BASE_CFLAGS) -O1 -fno-omit-frame-pointer \
		  -fsanitize=address,undefined -fno-sanitize-recover=all \
		  $(PKG_CFLAGS) -isystem $(KSFT)

# libdevpm's layers (docs/architecture.md), lib/runner apart: the CLI.
LIB_DIRS	:= core state trace rpm judge bus/pci bus/usb bus/scsi bus/i2c \
		   bus/input sleep qos mock harness
LIB_SRC		:= $(sort $(foreach d,$(LIB_DIRS),$(wildcard lib/$(d)/*.c)))
RUNNER_SRC	:= $(sort $(wildcard lib/runner/*.c))
SUITE_SRC	:= $(sort $(wildcard suites/*/*.c))
UNIT_SRC	:= $(sort $(wildcard tests/*.c))

LIB_OBJ		:= $(LIB_SRC:%.c=$(O)/%.o)
RUNNER_OBJ	:= $(RUNNER_SRC:%.c=$(O)/%.o)
SUITE_BIN	:= $(SUITE_SRC:%.c=$(O)/%)
SAN_LIB_OBJ	:= $(LIB_SRC:%.c=$(O)/san/%.o)
SAN_RUNNER_OBJ	:= $(RUNNER_SRC:%.c=$(O)/san/%.o)
UNIT_BIN	:= $(UNIT_SRC:tests/%.c=$(O)/tests/%)

HDRS		:= $(wildcard lib/*.h $(foreach d,$(LIB_DIRS),lib/$(d)/*.h) \
		   lib/runner/*.h tests/*.h suites/*/*.h)

.PHONY: all deps check check-unit check-results check-deb check-report \
	check-kselftest check-bisect qemu-check-bisect \
	check-lava fuzz fuzz-cc lint qemu qemu-check qemu-planted qemu-s3 qemu-lost qemu-soak qemu-survey \
	install clean \
	bench-audit qemu-bench \
	headers fixtures emit_tests run_tests ksft-runner

all: $(O)/devpm $(O)/libdevpm.a $(SUITE_BIN) $(O)/devpm-bench

# bench/ (bench/README): devpm-bench reads a run's summary.json and
# env.json (with the runner's JSON reader); fake-sysfs makes the tree
# `make bench-audit` times devpm audit on; trace-overhead is a guest
# program of the bench suite, not of the default run.
BENCH_OBJ	:= $(O)/bench/bench.o $(O)/lib/runner/json_read.o \
		   $(O)/lib/runner/util.o

$(O)/devpm-bench: $(BENCH_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_OBJ) -lm

$(O)/bench/fake-sysfs: bench/fake_sysfs.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $<

# devpm audit over fake trees of 100, 1,000 and 10,000 devices.
bench-audit: $(O)/devpm $(O)/bench/fake-sysfs
	@bash bench/audit.sh O=$(O)

# The bench suite's programs (guest side): only in the `make qemu-bench`
# image, never in the default run.
BENCH_PROG_SRC	:= $(sort $(wildcard bench/trace_*.c))
BENCH_PROG_BIN	:= $(BENCH_PROG_SRC:bench/%.c=$(O)/bench-suites/bench/%)

$(O)/bench-suites/bench/%: bench/%.c $(O)/libdevpm.a $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libdevpm.a $(PKG_LIBS) -lz

# NODEPS=1 (a package build): Build-Depends bring the packages.
deps:
	@[ -n "$(NODEPS)" ] || sh qemu/deps.sh

headers: $(KTREE_STAMP)

$(KTREE)/.unpacked: | deps
	@test -r $(LINUX_SOURCE_TAR) || { echo "devpm: $(LINUX_SOURCE_TAR) missing: apt-get install linux-source-6.1, or pass KSRC=/path/to/linux" >&2; exit 2; }
	@echo "  UNPACK  kselftest harness and checkpatch from $(LINUX_SOURCE_TAR)"
	@rm -rf $(KTREE) && mkdir -p $(KTREE)
	@tar -xJf $(LINUX_SOURCE_TAR) -C $(KTREE) --strip-components=1 \
		--wildcards '*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h' \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' \
		'*/tools/testing/kunit/*.py'
	@touch $@

ifeq ($(KSRC),)
# A tree unpacked before kunit was part of it: add just that.
$(KUNIT)/kunit_parser.py: | $(KTREE_STAMP)
	@echo "  UNPACK  tools/testing/kunit from $(LINUX_SOURCE_TAR)"
	@tar -xJf $(LINUX_SOURCE_TAR) -C $(KTREE) --strip-components=1 \
		--wildcards '*/tools/testing/kunit/*.py'
endif

$(O)/%.o: %.c $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/san/%.o: %.c $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC san  $<"
	@$(CC) $(SAN_CFLAGS) -c -o $@ $<

$(O)/libdevpm.a: $(LIB_OBJ)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(O)/san/libdevpm.a: $(SAN_LIB_OBJ)
	@rm -f $@ && ar rcs $@ $^

$(O)/devpm: $(RUNNER_OBJ) $(O)/libdevpm.a
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(RUNNER_OBJ) $(O)/libdevpm.a $(PKG_LIBS) -lz

$(O)/san/devpm: $(SAN_RUNNER_OBJ) $(O)/san/libdevpm.a
	@$(CC) $(SAN_CFLAGS) -o $@ $^ $(PKG_LIBS) -lz

$(O)/suites/%: suites/%.c $(O)/libdevpm.a $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libdevpm.a $(PKG_LIBS) -lz

# Unit tests link the sanitized library; runner sources are linked in too
# (without main.c) so the runner's logic can be tested directly.
SAN_RUNNER_LIB	:= $(filter-out $(O)/san/lib/runner/main.o,$(SAN_RUNNER_OBJ))

$(O)/tests/%: tests/%.c $(O)/san/libdevpm.a $(SAN_RUNNER_LIB) $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC san  $<"
	@$(CC) $(SAN_CFLAGS) -Itests -Ilib/runner -o $@ $< $(SAN_RUNNER_LIB) \
		$(O)/san/libdevpm.a $(PKG_LIBS) -lz

check-unit: $(UNIT_BIN) $(O)/san/devpm all
	@sh tests/run.sh $(O) $(UNIT_BIN)
	@bash tests/completion.sh $(abspath $(O))/devpm
	@sh tests/root_safety.sh $(O)/devpm

# checkpatch, then the layering rule (docs/architecture.md) on the
# sources and the objects, with its planted violations.
lint: $(KTREE_STAMP) all $(O)/devpm-qemu-agent $(O)/devpm-env-hook
	@sh tests/lint.sh $(CHECKPATCH)
	@sh tests/layers_test.sh $(O)

# The result files as their consumers read them: junit.xml against the
# xunit plugin's schema, results.ktap with the kernel's kunit_parser,
# summary.json's format; each with a broken file that must be refused.
check-results: $(O)/devpm $(KUNIT)/kunit_parser.py
	@sh tests/check_results.sh $(O) $(KUNIT)

# qemu/bisect.sh, one step of `git bisect run` (docs/bisect.md): its exit
# codes 0/1/125/255 from recorded runs and kernel trees that do not build
# (check-bisect); in QEMU, a stand-in kernel tree whose build hands over
# Debian's kernel must be good and one whose bzImage is cut short skipped
# (qemu-check-bisect, ~1 min under TCG).
check-bisect: $(O)/devpm
	@bash tests/check_bisect.sh $(O)

qemu-check-bisect: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook
	@bash tests/check_bisect.sh $(O) --qemu

# The kselftest tree of `make install INSTALL_PATH=` as its users meet
# it: run_kselftest.sh -c devpm runs every program, as a user who is not
# root too (a scratch system user), TAP parsed by kunit.py; 0755 scripts;
# each program's -l and -h; with its negative controls.  Needs root.
check-kselftest: all $(KSFT_RUNNER_STAMP) $(KUNIT)/kunit_parser.py
	@sh tests/check_kselftest.sh $(O) $(KUNIT)

# libFuzzer harnesses (tests/fuzz/): the readers of JSON, KTAP, the record
# stream and the journal, built with clang, ASan and UBSan, each run
# FUZZ_TIME seconds from its seed corpus.  No clang is an error: make deps
# installs it.
FUZZ_CC		?= clang
FUZZ_TIME	?= 11
FUZZ_CFLAGS	= $(BASE_CFLAGS) -Wno-unknown-warning-option -O1 \
		  -fno-omit-frame-pointer -fsanitize=address,undefined \
		  -fno-sanitize-recover=all $(PKG_CFLAGS) -isystem $(KSFT)
FUZZ_SRC	:= $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN	:= $(FUZZ_SRC:tests/fuzz/%.c=$(O)/fuzz/%)
FUZZ_OBJ	:= $(LIB_SRC:%.c=$(O)/fuzz/%.o) \
		   $(filter-out $(O)/fuzz/lib/runner/main.o,\
		   $(RUNNER_SRC:%.c=$(O)/fuzz/%.o))

# Checked on every build: a compiler gone since the probe is named too.
fuzz-cc:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "devpm: $(FUZZ_CC) not found: 'make deps' installs clang and libclang-rt-14-dev (or pass FUZZ_CC=)" >&2; exit 2; }

$(O)/fuzz/.clang: | deps fuzz-cc
	@mkdir -p $(dir $@)
	@echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' | \
		$(FUZZ_CC) -fsanitize=fuzzer -x c -o $(O)/fuzz/.probe - 2>/dev/null || \
		{ echo "devpm: $(FUZZ_CC) cannot link -fsanitize=fuzzer: apt-get install libclang-rt-14-dev ('make deps')" >&2; exit 2; }
	@rm -f $(O)/fuzz/.probe
	@touch $@

$(O)/fuzz/%.o: %.c $(HDRS) $(KTREE_STAMP) | $(O)/fuzz/.clang fuzz-cc
	@mkdir -p $(dir $@)
	@echo "  CC fuzz $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(O)/fuzz/libdevpm.a: $(FUZZ_OBJ)
	@rm -f $@ && ar rcs $@ $^

$(O)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(HDRS) $(O)/fuzz/libdevpm.a \
		| fuzz-cc
	@echo "  LD fuzz $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Ilib/runner -Itests -o $@ $< \
		$(O)/fuzz/libdevpm.a $(PKG_LIBS) -lz -lm

fuzz: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(O) $(FUZZ_TIME) $(FUZZ_BIN)

# The QEMU image and its host agent (qemu/; see qemu/README).  The self-test
# programs (qemu/selftest/) exercise the agent and the crash watchdog; they
# only go into the image `make qemu-check` boots for that.
# The agent reads JSON with the runner's reader: one parser in the tree.
AGENT_SRC	:= $(sort $(wildcard qemu/*.c)) lib/runner/json_read.c \
		   lib/runner/util.c
AGENT_OBJ	:= $(AGENT_SRC:%.c=$(O)/%.o)
AGENT_HDRS	:= $(wildcard qemu/*.h) lib/runner/json.h lib/runner/util.h
SAN_AGENT_LIB	:= $(filter-out $(O)/san/qemu/agent.o $(O)/san/qemu/serve.o,\
		   $(AGENT_SRC:%.c=$(O)/san/%.o))
SELFTEST_SRC	:= $(sort $(wildcard qemu/selftest/*.c))
SELFTEST_BIN	:= $(SELFTEST_SRC:qemu/selftest/%.c=$(O)/qemu/selftest/selftest/%)
# Planted-bug programs (qemu/planted/): the verdict rules' negative
# controls, booted only by `make qemu-planted`.
PLANTED_SRC	:= $(sort $(wildcard qemu/planted/*.c))
PLANTED_BIN	:= $(PLANTED_SRC:qemu/planted/%.c=$(O)/qemu/planted/planted/%)
QEMU_VARS	:= SUITES TEST PROFILE KERNEL_PKG KERNEL MODULES KCONFIG \
		   EXTRA_MODULES QEMU_ARGS BOOT ACCEL KVM_PROBE_S QEMU_TIMEOUT \
		   SET_ASIDE RESUME_BUDGET_MS \
		   DEVPM_SEED DEVPM_MOCK_BUG DEVPM_WAKEUP_REAL DEVPM_STRESS_CYCLES \
		   DEVPM_SLEEP_BUGS DEVPM_SLEEP_RECORD
export $(QEMU_VARS)

$(AGENT_OBJ) $(SAN_AGENT_LIB): $(AGENT_HDRS)

$(O)/devpm-qemu-agent: $(AGENT_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $(AGENT_OBJ) -lm

# The environment hook of the image (qemu/guest/: QEMU's controllers set
# aside; lib/harness/environment.h), a guest program on libdevpm.
GUEST_SRC	:= $(sort $(wildcard qemu/guest/*.c))
GUEST_OBJ	:= $(GUEST_SRC:%.c=$(O)/%.o)
SAN_GUEST_LIB	:= $(filter-out $(O)/san/qemu/guest/env_hook.o,\
		   $(GUEST_SRC:%.c=$(O)/san/%.o))

$(GUEST_OBJ) $(SAN_GUEST_LIB): $(wildcard qemu/guest/*.h)

$(O)/devpm-env-hook: $(GUEST_OBJ) $(O)/libdevpm.a
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(GUEST_OBJ) $(O)/libdevpm.a \
		$(PKG_LIBS) -lz

$(O)/qemu/selftest/selftest/%: qemu/selftest/%.c $(O)/libdevpm.a $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libdevpm.a $(PKG_LIBS) -lz

$(O)/qemu/planted/planted/%: qemu/planted/%.c $(O)/libdevpm.a $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libdevpm.a $(PKG_LIBS) -lz

$(O)/tests/test_qemu_%: tests/test_qemu_%.c $(SAN_AGENT_LIB) $(SAN_GUEST_LIB) \
		$(O)/san/libdevpm.a $(HDRS) $(AGENT_HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC san  $<"
	@$(CC) $(SAN_CFLAGS) -Itests -Iqemu -o $@ $< $(SAN_AGENT_LIB) \
		$(SAN_GUEST_LIB) $(O)/san/libdevpm.a $(PKG_LIBS) -lz -lm

# The fixture kernel modules (docs/fixtures.md), built in a copy under
# $(O)/fixtures-build so no object lands in the source tree.  `make qemu`
# builds them itself against the image kernel's headers (qemu/run.sh).
KDIR		?= /lib/modules/$(shell uname -r)/build

fixtures:
	@sh fixtures/build.sh "$(KDIR)" fixtures/devpm_mock $(O)/fixtures-build

qemu: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook
	@bash qemu/run.sh O=$(O)

qemu-check: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook $(SELFTEST_BIN) $(KSFT_RUNNER_STAMP)
	@rm -rf $(O)/kselftest
	@$(MAKE) -s --no-print-directory install \
		INSTALL_PATH=$(abspath $(O))/kselftest
	@KUNIT_PY=$(abspath $(KTREE))/tools/testing/kunit/kunit.py \
		bash qemu/run.sh O=$(O) --check

# The S3 cases, which the default PVH run has too, once more on a bzImage
# boot (qemu/run.sh: BOOT; its kernel comes by fw_cfg, with KASLR, as in a
# LAVA image): each must pass.
S3_CASES	:= wakeup/userspace:alarm_wakes_system
qemu-s3: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook
	@BOOT=bzimage SUITES=wakeup TEST='userspace/alarm_wakes_system' \
		bash qemu/run.sh O=$(O)
	@sh tests/check_cases.sh pass results/latest $(S3_CASES)

qemu-planted: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook $(PLANTED_BIN)
	@PLANTED_SLEEP=$(PLANTED_SLEEP) bash qemu/run.sh O=$(O) --planted

# The wakeup suite's negative control (docs/suites/wakeup.md): devpm_mock's
# lost_wakeup bug must make the sweep and the stress FAIL, the lost events
# counted.  run.sh exits 1 for those failures; 2 (an error) still stops.
LOST_CASES	:= wakeup/events:event_during_freeze_sweep \
		   wakeup/stress:stress_random_injection
qemu-lost: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook
	@rc=0; DEVPM_MOCK_BUG=lost_wakeup DEVPM_STRESS_CYCLES=30 SUITES=wakeup \
		TEST='*s[wt][er]*[pn]' bash qemu/run.sh O=$(O) || rc=$$?; \
		[ $$rc -le 1 ] || exit $$rc
	@sh tests/check_cases.sh lost results/latest $(LOST_CASES)

# The default run SOAK_RUNS times (10) with SOAK_HOG busy loops on the
# host, the planted late suspend after each (qemu/soak.sh): no FAIL may
# come from host load.  Not part of check: ~25 min.  SOAK_LOCK=FILE:
# each round holds flock FILE.
qemu-soak: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook $(PLANTED_BIN)
	@SOAK_RUNS=$(SOAK_RUNS) SOAK_HOG=$(SOAK_HOG) SOAK_LOCK=$(SOAK_LOCK) \
		bash qemu/soak.sh O=$(O)

# The QEMU device survey (docs/qemu-devices.md): the default machine with
# the candidates QEMU offers (qemu/profiles/survey), each device allowed
# to runtime-suspend and reported (qemu/survey/devices.c).
SURVEY_SRC	:= $(sort $(wildcard qemu/survey/*.c))
SURVEY_BIN	:= $(SURVEY_SRC:qemu/survey/%.c=$(O)/qemu/survey/survey/%)

$(O)/qemu/survey/survey/%: qemu/survey/%.c $(O)/libdevpm.a $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libdevpm.a $(PKG_LIBS) -lz

qemu-survey: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook $(SURVEY_BIN)
	@bash qemu/run.sh O=$(O) --survey

# The bench suite (bench/README) in the QEMU image: trace on/off.
qemu-bench: deps all $(O)/devpm-qemu-agent $(O)/devpm-env-hook $(BENCH_PROG_BIN)
	@bash qemu/run.sh O=$(O) --bench

# After the QEMU runs, their own result files pass the same checks: the
# devpm run's and the hang self-test's (a guest killed mid-case), its
# report in Chromium; then the verdict rules' planted bugs (its run
# becomes results/latest), its result files and its report, whose
# failures must show devpm_mock.3's runtime-PM calls; then the planted
# system-sleep bugs' runs (PLANTED_SLEEP=only).
check: check-unit lint check-results check-kselftest check-bisect fuzz \
	check-deb check-report qemu-check
	@sh tests/check_results.sh $(O) $(KUNIT) results/latest
	@sh tests/check_results.sh $(O) $(KUNIT) $(O)/qemu/selftest-results/latest
	@sh tests/report_browser.sh $(O)/devpm results/latest
	@$(MAKE) --no-print-directory qemu-planted PLANTED_SLEEP=0
	@sh tests/check_results.sh $(O) $(KUNIT) results/latest
	@sh tests/report_browser.sh $(O)/devpm results/latest devpm_mock.3
	@$(MAKE) --no-print-directory qemu-planted PLANTED_SLEEP=only
	@$(MAKE) --no-print-directory qemu-s3
	@$(MAKE) --no-print-directory qemu-lost
	@$(MAKE) --no-print-directory qemu-check-bisect

# The LAVA files (lava/) run by Debian's lava-run on this machine; not
# part of check (minutes of TCG; see lava/check.sh).
check-lava: all
	@sh qemu/deps.sh lava
	@bash lava/check.sh O=$(O)

# `devpm report` in headless Chromium (make deps installs it): the
# fixture's report here; check renders the QEMU runs' reports too.
check-report: all | deps
	@sh tests/report_browser.sh $(O)/devpm

# The Debian package (debian/), built from a copy of the tree under
# $(O)/deb so that dpkg-buildpackage leaves the tree as it was, then
# lintian --pedantic: no tag of any level allowed; then what the packages
# hold and the autopkgtests of debian/tests (tests/check_deb.sh).
DEB_VERSION	= $(shell dpkg-parsechangelog -l debian/changelog -S Version)

check-deb: deps
	@echo "  DEB     dpkg-buildpackage -b -us -uc in $(O)/deb"
	@rm -rf $(O)/deb && mkdir -p $(O)/deb/devpm-$(DEB_VERSION)
	@tar -cf - --exclude=./$(O) --exclude=./results --exclude=./.git . | \
		tar -xf - -C $(O)/deb/devpm-$(DEB_VERSION)
	@cd $(O)/deb/devpm-$(DEB_VERSION) && \
		DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -b -us -uc \
		>../build.log 2>&1 || \
		{ tail -20 ../build.log; echo "devpm: dpkg-buildpackage failed; log in $(O)/deb/build.log" >&2; exit 1; }
	@cd $(O)/deb && ls *.deb | sed 's/^/  built   /'
	@cd $(O)/deb && lintian --pedantic --fail-on error,warning,info,pedantic \
		--suppress-tags bad-distribution-in-changes-file *.changes
	@sh tests/check_deb.sh $(O)/deb $(O)/deb/devpm-$(DEB_VERSION)

# kselftest (tools/testing/selftests/Makefile and lib.mk): the collection
# is $(COLLECTION), as run_kselftest.sh -c names it (kselftest-list.txt's
# "collection:test", the directory runner.sh runs the tests in), so
# `run_kselftest.sh -c devpm` runs every suite.  Each program is the test
# <suite>_<program> (errors is a program of async and of scsi: runner.sh
# names a test by its basename).  emit_tests prints its kselftest-list.txt
# lines; install INSTALL_PATH=DIR writes the programs, the collection's
# `settings` (runner.sh reads one per directory: timeout = the largest
# --needs timeout_s of the programs) and the kernel's run_kselftest.sh and
# kselftest/ (when DIR has none yet; 0755, so any user may run them), and
# merges kselftest-list.txt.  KSFT_LINK=DIR installs each program as a
# symlink to DIR/<suite>/<program> instead (the Debian package's tree).
KSFT_PROGS	:= $(foreach f,$(SUITE_SRC),$(word 2,$(subst /, ,$(f))):$(basename $(notdir $(f))))
KSFT_SUITES	:= $(sort $(foreach p,$(KSFT_PROGS),$(firstword $(subst :, ,$(p)))))
KSFT_NAMES	:= $(subst :,_,$(KSFT_PROGS))
KSFT_RUNNER_STAMP := $(if $(KSRC),,$(KTREE)/.ksft-runner)
KSFT_LINK	?=

ksft-runner: $(KSFT_RUNNER_STAMP)

# The kernel's kselftest runner and kunit.py (their parser checks our
# output), unpacked beside the harness headers.
$(KTREE)/.ksft-runner: $(KTREE_STAMP)
	@echo "  UNPACK  run_kselftest.sh and kunit.py from $(LINUX_SOURCE_TAR)"
	@tar -xJf $(LINUX_SOURCE_TAR) -C $(KTREE) --strip-components=1 \
		--wildcards '*/tools/testing/selftests/run_kselftest.sh' \
		'*/tools/testing/selftests/kselftest/*' \
		'*/tools/testing/kunit/*'
	@touch $@

emit_tests:
	@$(foreach t,$(KSFT_NAMES),echo "$(COLLECTION):$(t)";)

ifneq ($(INSTALL_PATH),)
install: all $(KSFT_RUNNER_STAMP)
	@echo "  INSTALL kselftest tree in $(INSTALL_PATH)"
	@set -e; d=$(INSTALL_PATH)/$(COLLECTION); t=0; install -d $$d; \
	for s in $(KSFT_SUITES); do \
		[ -d $$d/$$s ] && rm -rf $$d/$$s; \
		for p in $(O)/suites/$$s/*; do \
			n=$${s}_$$(basename $$p); \
			if [ -n "$(KSFT_LINK)" ]; then \
				ln -sfn $(KSFT_LINK)/$$s/$$(basename $$p) $$d/$$n; \
			else \
				install -m 755 $$p $$d/$$n; \
			fi; \
			n=$$($$p --needs | sed -n 's/^# NEEDS timeout_s: *//p'); \
			[ "$${n:-0}" -gt $$t ] && t=$$n; \
		done; \
	done; \
	{ echo "# the largest timeout_s of the programs' --needs"; \
	  echo "timeout=$$t"; } >$$d/settings; chmod 644 $$d/settings
	@set -e; if [ ! -e $(INSTALL_PATH)/run_kselftest.sh ]; then \
		install -d $(INSTALL_PATH)/kselftest; \
		install -m 755 $(KSFT)/kselftest/module.sh \
			$(KSFT)/kselftest/runner.sh \
			$(KSFT)/kselftest/prefix.pl $(INSTALL_PATH)/kselftest/; \
		install -m 755 $(KSFT)/run_kselftest.sh $(INSTALL_PATH)/; \
	fi
	@list=$(INSTALL_PATH)/kselftest-list.txt; \
	{ grep -v '^$(COLLECTION)[/:]' $$list 2>/dev/null || true; \
	  $(MAKE) -s --no-print-directory emit_tests; } >$$list.tmp && \
	mv $$list.tmp $$list && chmod 644 $$list
else
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/devpm/suites \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(O)/devpm $(DESTDIR)$(PREFIX)/bin/devpm
	cd $(O)/suites && for f in */*; do \
		install -D -m 755 $$f $(DESTDIR)$(PREFIX)/lib/devpm/suites/$$f; done
	install -m 644 docs/devpm.1 $(DESTDIR)$(PREFIX)/share/man/man1/devpm.1
	install -D -m 644 lib/runner/completion.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/devpm
endif

# lib.mk's run_tests: the installed tree, run by the kernel's runner
# (SUITES=: their programs only).
run_tests: all
	@$(MAKE) -s --no-print-directory install \
		INSTALL_PATH=$(abspath $(O))/kselftest
	@cd $(O)/kselftest && ./run_kselftest.sh \
		$(if $(SUITES),$(foreach t,$(filter $(addsuffix _%,$(SUITES)),$(KSFT_NAMES)),-t $(COLLECTION):$(t)),-c $(COLLECTION))

clean:
	rm -rf $(O) fixtures/devpm_mock/devpm_mock.ko
