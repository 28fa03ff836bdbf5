## The tests, included from Makefile.am.  Each test is named once here:
## the C unit test programs in UNIT_TESTS, the bats files in CLI_TESTS,
## the slow ones in SLOW_TESTS.  Everything goes through Automake's TAP
## driver, so the summary counts individual test cases (C unit tests and
## bats @tests).  tests/README says what each kind of test is for.

## ---------------------------------------------------------------------
## The C unit tests (tests/unit/).  Each program prints TAP through
## tests/unit/tap.h; the decoding drivers (every input split at every
## byte), the growing string and the other helpers they share live once
## in the helper library.

check_LIBRARIES = tests/unit/libtesthelpers.a
tests_unit_libtesthelpers_a_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_libtesthelpers_a_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_libtesthelpers_a_SOURCES = tests/unit/helpers.c \
	tests/unit/helpers.h tests/unit/tap.h

UNIT_LDADD = tests/unit/libtesthelpers.a src/libutf8conv.a $(GNULIB_LIBS)

UNIT_TESTS = \
	tests/unit/test_registry \
	tests/unit/test_decode \
	tests/unit/test_encode \
	tests/unit/test_policy \
	tests/unit/test_pipeline \
	tests/unit/test_variants \
	tests/unit/test_single_byte \
	tests/unit/test_iconv_bridge \
	tests/unit/test_iconv_table \
	tests/unit/test_iconv_reference \
	tests/unit/test_fast \
	tests/unit/test_validator \
	tests/unit/test_binary
check_PROGRAMS = $(UNIT_TESTS)

# The registry: names and aliases, codec flags, the reasons of errors.
tests_unit_test_registry_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_registry_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_registry_SOURCES = tests/unit/test_registry.c
tests_unit_test_registry_LDADD = $(UNIT_LDADD)

# The UTF-8, UTF-16 and UTF-32 decoders: values, errors, the step
# contract, and every input under every split pattern and every decoder.
tests_unit_test_decode_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_decode_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_decode_SOURCES = tests/unit/test_decode.c
tests_unit_test_decode_LDADD = $(UNIT_LDADD)

# The UTF-8, UTF-16 and UTF-32 encoders: bytes, room, round trips.
tests_unit_test_encode_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_encode_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_encode_SOURCES = tests/unit/test_encode.c
tests_unit_test_encode_LDADD = $(UNIT_LDADD)

# The policies: formats, names, decoding and encoding errors.
tests_unit_test_policy_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_policy_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_policy_SOURCES = tests/unit/test_policy.c
tests_unit_test_policy_LDADD = $(UNIT_LDADD)

# The pipeline end to end through files, with each kernel set (only
# UTF8CONV_IMPL's when it is set).  Its diagnostics come from the CLI's
# diag.c.
tests_unit_test_pipeline_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_pipeline_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_pipeline_SOURCES = tests/unit/test_pipeline.c
tests_unit_test_pipeline_LDADD = src/libcli.a $(UNIT_LDADD)

# UTF-8's variants: CESU-8, MUTF-8 and WTF-8.
tests_unit_test_variants_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_variants_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_variants_SOURCES = tests/unit/test_variants.c
tests_unit_test_variants_LDADD = $(UNIT_LDADD)

# The single-byte codecs, every byte and every value both ways, and
# CP1252 against WHATWG's index.
tests_unit_test_single_byte_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_single_byte_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_single_byte_SOURCES = tests/unit/test_single_byte.c
tests_unit_test_single_byte_LDADD = $(UNIT_LDADD)

# The iconv(3) bridge: offsets, errors, input split at every byte.
tests_unit_test_iconv_bridge_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_iconv_bridge_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_iconv_bridge_SOURCES = tests/unit/test_iconv_bridge.c
tests_unit_test_iconv_bridge_LDADD = $(UNIT_LDADD)

# iconv(3)'s single-byte charsets as tables: which ones, byte by byte
# against iconv(3), the encoder, the cache, -f auto.
tests_unit_test_iconv_table_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_iconv_table_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_iconv_table_SOURCES = tests/unit/test_iconv_table.c
tests_unit_test_iconv_table_LDADD = $(UNIT_LDADD)

# The iconv(3) bridge and tables against iconv(3) called directly: every
# charset iconv --list names, random inputs with invalid bytes, every
# policy, both ways.
tests_unit_test_iconv_reference_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_iconv_reference_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_iconv_reference_SOURCES = tests/unit/test_iconv_reference.c \
	tests/unit/iconv_model.c tests/unit/iconv_model.h
tests_unit_test_iconv_reference_LDADD = $(UNIT_LDADD)

# The fast kernels against the state machine, for every kernel set the
# machine has (only UTF8CONV_IMPL's when it is set).
tests_unit_test_fast_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_fast_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_fast_SOURCES = tests/unit/test_fast.c
tests_unit_test_fast_LDADD = $(UNIT_LDADD)

# Each kernel set's UTF-8 validator against the portable one on every
# pair of bytes and the lead bytes' longer sequences.
tests_unit_test_validator_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_validator_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_validator_SOURCES = tests/unit/test_validator.c
tests_unit_test_validator_LDADD = $(UNIT_LDADD)

# The binary test: the word-at-a-time byte scan against a byte loop,
# and the magic numbers.
tests_unit_test_binary_CPPFLAGS = $(UTF8CONV_CPPFLAGS)
tests_unit_test_binary_CFLAGS = $(UTF8CONV_CFLAGS)
tests_unit_test_binary_SOURCES = tests/unit/test_binary.c
tests_unit_test_binary_LDADD = $(UNIT_LDADD)

## ---------------------------------------------------------------------
## The command-line tests (tests/cli/*.bats), through the same driver.
## faults.bats injects faults (part of "make check").

CLI_TESTS = \
	tests/cli/eol.bats \
	tests/cli/golden.bats \
	tests/cli/detect.bats \
	tests/cli/faults.bats \
	tests/cli/signals.bats \
	tests/cli/variants.bats \
	tests/cli/mojibake.bats \
	tests/cli/encodings.bats \
	tests/cli/binary.bats \
	tests/cli/auto.bats \
	tests/cli/inplace.bats \
	tests/cli/check.bats \
	tests/cli/batch.bats \
	tests/cli/progress.bats \
	tests/cli/readahead.bats \
	tests/cli/kuhn.bats \
	tests/cli/report.bats \
	tests/cli/io.bats \
	tests/cli/bom.bats \
	tests/cli/policies.bats \
	tests/cli/dos2unix.bats \
	tests/cli/structure.bats \
	tests/cli/basic.bats \
	tests/cli/errors.bats \
	tests/cli/parallel.bats \
	tests/cli/recursive.bats \
	tests/cli/manpage.bats

## The longest first, so that "make -jN check" ends with short ones.
TESTS = $(CLI_TESTS) $(UNIT_TESTS)

# The extensionless C test programs print TAP.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) \
	$(top_srcdir)/build-aux/tap-driver.sh

# bats files, through the same TAP driver.
TEST_EXTENSIONS = .bats
BATS_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) \
	$(top_srcdir)/build-aux/tap-driver.sh
BATS_LOG_COMPILER = $(BATS)
AM_BATS_LOG_FLAGS = --tap
# bats exits 1 when a test fails; the FAIL line already says so.
AM_BATS_LOG_DRIVER_FLAGS = --ignore-exit

# UTF8CONV_TESTDATA (shared test data: UTF-8-test.txt, WHATWG indexes)
# defaults to ../shared/testdata next to the source tree; the tests that
# need it skip when it is absent (as in "make distcheck").
# UTF8CONV_ICONV_COMPLETE (configure.ac) is "yes" where iconv(3) must
# know every charset the tests of the bridge use; elsewhere they skip.
AM_TESTS_ENVIRONMENT = \
	UTF8CONV='$(abs_top_builddir)/src/utf8conv$(EXEEXT)'; \
	export UTF8CONV; \
	UTF8CONV_SRCDIR='$(abs_top_srcdir)'; \
	export UTF8CONV_SRCDIR; \
	: "$${UTF8CONV_TESTDATA=$(abs_top_srcdir)/../shared/testdata}"; \
	export UTF8CONV_TESTDATA; \
	: "$${UTF8CONV_ICONV_COMPLETE=$(ICONV_COMPLETE)}"; \
	export UTF8CONV_ICONV_COMPLETE;

EXTRA_DIST += \
	$(CLI_TESTS) \
	tests/test_helper.bash \
	tests/cli/eol-cases.py \
	tests/cli/binary-corpus.py \
	tests/detect/samples \
	tests/golden \
	tests/detect/samples \
	tests/README \
	tests/valgrind-wrapper \
	tests/valgrind.supp \
	tests/qemu-wrapper \
	tests/check-ports \
	build-aux/tap-driver.sh

## ---------------------------------------------------------------------
## "make check-impls": the unit tests and the golden runs once per kernel
## set this machine has, forced with UTF8CONV_IMPL (src/simd/kernels.c);
## a set is there when utf8conv accepts it.  One line per set, "impl
## NAME: N passed, N failed", and each run's output in
## check-impls-NAME.log; fails if any test failed.

## The unit tests that go through the kernels (the codecs' state
## machines never do); eol.bats compares the sets of kernel_sets
## (tests/test_helper.bash), which in "make check" are the reference and
## the default set only.
IMPLS = reference scalar sse2 avx2 avx512 avx512vbmi2 neon
IMPL_TESTS = tests/unit/test_fast tests/unit/test_validator \
	tests/unit/test_pipeline tests/unit/test_binary \
	tests/unit/test_iconv_table tests/unit/test_iconv_reference \
	tests/cli/golden.bats tests/cli/variants.bats tests/cli/kuhn.bats \
	tests/cli/eol.bats
MOSTLYCLEANFILES += check-impls-*.log

.PHONY: check-impls
check-impls: all
	@bad=0; \
	for impl in $(IMPLS); do \
	  if ! UTF8CONV_IMPL=$$impl ./src/utf8conv$(EXEEXT) </dev/null \
	       >/dev/null 2>&1; then \
	    echo "impl $$impl: not on this machine"; continue; \
	  fi; \
	  rm -f test-suite.log; \
	  $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(IMPL_TESTS)' \
	    UTF8CONV_IMPL=$$impl >check-impls-$$impl.log 2>&1; \
	  if test -f test-suite.log; then \
	    $(AWK) -v impl=$$impl '/^# PASS:/ { p = $$3 } \
	      /^# (FAIL|ERROR|XPASS):/ { f += $$3 } \
	      END { printf "impl %s: %d passed, %d failed\n", impl, p, f; \
	            exit (f > 0 || p == 0) }' test-suite.log || { \
	      bad=1; grep -E '^(FAIL|ERROR|XPASS):' check-impls-$$impl.log; }; \
	  else \
	    echo "impl $$impl: 0 passed, 1 failed (no test-suite.log;" \
	      "see check-impls-$$impl.log)"; \
	    bad=1; \
	  fi; \
	done; \
	test $$bad = 0 || \
	  { echo "check-impls: failures; see check-impls-*.log" >&2; exit 1; }

## ---------------------------------------------------------------------
## Slow tests of scale ("make check-slow": a 5 GiB sparse file, a 2 GiB
## pipe; see tests/README).

SLOW_TESTS = tests/slow/scale.bats
EXTRA_DIST += $(SLOW_TESTS)

.PHONY: check-slow
check-slow: all
	cd $(builddir) && $(AM_TESTS_ENVIRONMENT) \
	  $(BATS) $(addprefix $(abs_top_srcdir)/,$(SLOW_TESTS))
