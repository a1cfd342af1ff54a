# SPDX-License-Identifier: GPL-2.0-only
#
# devpm - device power-management tests for Linux.
#
#   make            build build/devpm, build/libdevpm.a and build/suites/*/*
#   make check      unit tests (ASan+UBSan), checkpatch, then every suite in QEMU
#   make qemu       build the QEMU image and run every suite in it (SUITES=...)
#   make deps       install missing Debian packages (root) or print the line
#   make install    PREFIX=/usr/local (kselftest-style INSTALL_PATH also works)
#   make fixtures   fixtures/devpm_mock/devpm_mock.ko against KDIR

CC		?= cc
PKG_CONFIG	?= pkg-config
O		:= build
KSRC		?=
PREFIX		?= /usr/local
INSTALL_PATH	?= $(DESTDIR)$(PREFIX)

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

PKGS		:= libpci libusb-1.0 libevdev
PKG_CFLAGS	= $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	= $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARN		:= -Wall -Wextra -Werror -Wno-format-truncation
BASE_CFLAGS	:= -std=gnu11 -D_GNU_SOURCE $(WARN) -g -Ilib
CFLAGS		?= -O2
ALL_CFLAGS	= $(BASE_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -isystem $(KSFT)
SAN_CFLAGS	= $(BASE_CFLAGS) -O1 -fno-omit-frame-pointer \
		  -fsanitize=address,undefined -fno-sanitize-recover=all \
		  $(PKG_CFLAGS) -isystem $(KSFT)

LIB_SRC		:= $(sort $(wildcard lib/*.c))
RUNNER_SRC	:= $(sort $(wildcard lib/runner/*.c))
SUITE_SRC	:= $(sort $(wildcard suites/*/*.c))
UNIT_SRC	:= $(sort $(wildcard tests/*.c))

LIB_OBJ		:= $(LIB_SRC:%.c=$(O)/%.o)
RUNNER_OBJ	:= $(RUNNER_SRC:%.c=$(O)/%.o)
SUITE_BIN	:= $(SUITE_SRC:%.c=$(O)/%)
SAN_LIB_OBJ	:= $(LIB_SRC:%.c=$(O)/san/%.o)
SAN_RUNNER_OBJ	:= $(RUNNER_SRC:%.c=$(O)/san/%.o)
UNIT_BIN	:= $(UNIT_SRC:tests/%.c=$(O)/tests/%)

HDRS		:= $(wildcard lib/*.h lib/runner/*.h tests/*.h suites/*/*.h)

.PHONY: all deps check check-unit lint qemu qemu-check install clean \
	headers fixtures

all: $(O)/devpm $(O)/libdevpm.a $(SUITE_BIN)

deps:
	@sh qemu/deps.sh

headers: $(KTREE_STAMP)

$(KTREE)/.unpacked: | deps
	@test -r $(LINUX_SOURCE_TAR) || { echo "devpm: $(LINUX_SOURCE_TAR) missing: apt-get install linux-source-6.1, or pass KSRC=/path/to/linux" >&2; exit 2; }
	@echo "  UNPACK  kselftest harness and checkpatch from $(LINUX_SOURCE_TAR)"
	@rm -rf $(KTREE) && mkdir -p $(KTREE)
	@tar -xJf $(LINUX_SOURCE_TAR) -C $(KTREE) --strip-components=1 \
		--wildcards '*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h' \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	@touch $@

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
	@$(CC) $(ALL_CFLAGS) -o $@ $(RUNNER_OBJ) $(O)/libdevpm.a $(PKG_LIBS) -lz

$(O)/san/devpm: $(SAN_RUNNER_OBJ) $(O)/san/libdevpm.a
	@$(CC) $(SAN_CFLAGS) -o $@ $^ $(PKG_LIBS) -lz

$(O)/suites/%: suites/%.c $(O)/libdevpm.a $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libdevpm.a $(PKG_LIBS) -lz

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

lint: $(KTREE_STAMP)
	@sh tests/lint.sh $(CHECKPATCH)

# The QEMU image and its host agent (qemu/; see qemu/README).  The self-test
# programs (qemu/selftest/) exercise the agent and the crash watchdog; they
# only go into the image `make qemu-check` boots for that.
AGENT_SRC	:= $(sort $(wildcard qemu/*.c))
AGENT_OBJ	:= $(AGENT_SRC:%.c=$(O)/%.o)
AGENT_HDRS	:= $(wildcard qemu/*.h)
SAN_AGENT_LIB	:= $(filter-out $(O)/san/qemu/agent.o $(O)/san/qemu/serve.o,\
		   $(AGENT_SRC:%.c=$(O)/san/%.o))
SELFTEST_SRC	:= $(sort $(wildcard qemu/selftest/*.c))
SELFTEST_BIN	:= $(SELFTEST_SRC:qemu/selftest/%.c=$(O)/qemu/selftest/selftest/%)
QEMU_VARS	:= SUITES TEST PROFILE KERNEL_PKG KERNEL MODULES KCONFIG \
		   EXTRA_MODULES QEMU_ARGS BOOT ACCEL QEMU_TIMEOUT \
		   DEVPM_SEED DEVPM_MOCK_BUG DEVPM_WAKEUP_REAL DEVPM_STRESS_CYCLES \
		   DEVPM_WAKEUP_KEEP_USB
export $(QEMU_VARS)

$(AGENT_OBJ) $(SAN_AGENT_LIB): $(AGENT_HDRS)

$(O)/devpm-qemu-agent: $(AGENT_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $(AGENT_OBJ)

$(O)/qemu/selftest/selftest/%: qemu/selftest/%.c $(O)/libdevpm.a $(HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libdevpm.a $(PKG_LIBS) -lz

$(O)/tests/test_qemu_%: tests/test_qemu_%.c $(SAN_AGENT_LIB) $(O)/san/libdevpm.a $(HDRS) \
		$(AGENT_HDRS) $(KTREE_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC san  $<"
	@$(CC) $(SAN_CFLAGS) -Itests -Iqemu -o $@ $< $(SAN_AGENT_LIB) \
		$(O)/san/libdevpm.a $(PKG_LIBS) -lz

# The fixture kernel modules (docs/fixtures.md), built in a copy under
# $(O)/fixtures-build so no object lands in the source tree.  `make qemu`
# builds them itself against the image kernel's headers (qemu/run.sh).
KDIR		?= /lib/modules/$(shell uname -r)/build

fixtures:
	@sh fixtures/build.sh "$(KDIR)" fixtures/devpm_mock $(O)/fixtures-build

qemu: deps all $(O)/devpm-qemu-agent
	@bash qemu/run.sh O=$(O)

qemu-check: deps all $(O)/devpm-qemu-agent $(SELFTEST_BIN)
	@bash qemu/run.sh O=$(O) --check

check: check-unit lint qemu-check

install: all
	install -d $(INSTALL_PATH)/bin $(INSTALL_PATH)/lib/devpm/suites \
		$(INSTALL_PATH)/share/man/man1
	install -m 755 $(O)/devpm $(INSTALL_PATH)/bin/devpm
	cd $(O)/suites && for f in */*; do \
		install -D -m 755 $$f $(INSTALL_PATH)/lib/devpm/suites/$$f; done
	install -m 644 docs/devpm.1 $(INSTALL_PATH)/share/man/man1/devpm.1

clean:
	rm -rf $(O) fixtures/devpm_mock/devpm_mock.ko
