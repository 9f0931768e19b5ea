# SPDX-License-Identifier: MIT
# GPUTILE_ENABLE_SANITIZERS
# --enable-sanitizers: AddressSanitizer (LeakSanitizer comes with it) and
# UndefinedBehaviorSanitizer on all host code: every C file, and the host
# side of every .cu file (through nvcc -Xcompiler). Undefined behaviour
# aborts the program (-fno-sanitize-recover=undefined), so a test fails
# rather than logging. For testing only: never install such a build.
# Sets SANITIZER_CFLAGS, SANITIZER_LDFLAGS, SANITIZER_NVCCFLAGS and the
# conditional SANITIZERS; Makefile.am adds them to the build and sets the
# sanitizers' options for `make check'.
AC_DEFUN([GPUTILE_ENABLE_SANITIZERS], [
AC_ARG_ENABLE([sanitizers],
  [AS_HELP_STRING([--enable-sanitizers],
    [build host code with AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer (for make check; not for installing)])],
  [], [enable_sanitizers=no])
SANITIZER_CFLAGS=
SANITIZER_LDFLAGS=
SANITIZER_NVCCFLAGS=
AS_IF([test "x$enable_sanitizers" = xyes], [
  # -fno-sanitize=nonnull-attribute: the public functions are declared
  # nonnull for their callers, yet check for NULL and return
  # GPUTILE_ERROR_NULL_POINTER (gputile.h); the argument-check suites pass
  # NULL on purpose. The library itself is built without the attribute.
  SANITIZER_CFLAGS="-fsanitize=address -fsanitize=undefined -fno-sanitize-recover=undefined -fno-sanitize=nonnull-attribute -fno-omit-frame-pointer -g"
  SANITIZER_LDFLAGS="-fsanitize=address -fsanitize=undefined"
  # nvcc splits -Xcompiler at commas: one sanitizer per flag.
  SANITIZER_NVCCFLAGS="-Xcompiler `echo $SANITIZER_CFLAGS | tr ' ' ','`"
  gputile_save_CFLAGS=$CFLAGS
  gputile_save_LDFLAGS=$LDFLAGS
  CFLAGS="$CFLAGS $SANITIZER_CFLAGS"
  LDFLAGS="$LDFLAGS $SANITIZER_LDFLAGS"
  AC_MSG_CHECKING([whether $CC builds and links with $SANITIZER_CFLAGS])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <stdlib.h>]], [[char *p = malloc(4); free(p); return 0;]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([--enable-sanitizers: $CC cannot build with $SANITIZER_CFLAGS (Debian: gcc brings libasan and libubsan)])])
  CFLAGS=$gputile_save_CFLAGS
  LDFLAGS=$gputile_save_LDFLAGS
])
AC_SUBST([SANITIZER_CFLAGS])
AC_SUBST([SANITIZER_LDFLAGS])
AC_SUBST([SANITIZER_NVCCFLAGS])
AM_CONDITIONAL([SANITIZERS], [test "x$enable_sanitizers" = xyes])
])
