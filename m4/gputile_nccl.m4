# SPDX-License-Identifier: MIT
# GPUTILE_CHECK_NCCL (issue 22)
# --with-nccl[=DIR]: build the multi-GPU calls on NCCL. DIR is a prefix
# that holds include/nccl.h and lib/ (or lib64/) libnccl.so or, as PyPI's
# nvidia-nccl-cu13 ships it, only libnccl.so.2 (then linked as
# -l:libnccl.so.2). Without DIR: the CUDA prefix (CUDA 13 toolkits ship
# NCCL there), else the compiler's default paths. Without the option the
# library builds without NCCL and those calls return
# GPUTILE_ERROR_UNSUPPORTED. Sets NCCL_CPPFLAGS, NCCL_LIBS (what a program
# that links libgputile.a adds: gputile.pc's Libs and the CMake target),
# the conditional HAVE_NCCL and have_nccl.
AC_DEFUN([GPUTILE_CHECK_NCCL], [
AC_REQUIRE([GPUTILE_CHECK_CUDA])
AC_ARG_WITH([nccl],
  [AS_HELP_STRING([--with-nccl@<:@=DIR@:>@], [build the multi-GPU calls on NCCL (DIR: NCCL's prefix; default: the CUDA prefix, else the system's)])],
  [], [with_nccl=no])
have_nccl=no
NCCL_CPPFLAGS=
NCCL_LIBS=
NCCL_PC_LIBS=
NCCL_LIBFILE=
AS_IF([test "x$with_nccl" != xno], [
  gputile_nccl_dirs=
  AS_IF([test "x$with_nccl" = xyes],
    [gputile_nccl_dirs="$CUDA_PREFIX"],
    [AS_IF([test ! -d "$with_nccl"],
       [AC_MSG_ERROR([--with-nccl=$with_nccl: $with_nccl does not exist (or is not a directory)])])
     gputile_nccl_dirs=`cd "$with_nccl" && pwd`])
  AC_MSG_CHECKING([for NCCL])
  for gputile_dir in $gputile_nccl_dirs; do
    AS_IF([test -f "$gputile_dir/include/nccl.h"], [
      for gputile_sub in lib64 lib; do
        AS_IF([test -z "$NCCL_LIBS" && test -f "$gputile_dir/$gputile_sub/libnccl.so"],
          [NCCL_LIBS="-L$gputile_dir/$gputile_sub -lnccl"
           NCCL_LIBFILE=$gputile_dir/$gputile_sub/libnccl.so],
          [test -z "$NCCL_LIBS" && test -f "$gputile_dir/$gputile_sub/libnccl.so.2"],
          [NCCL_LIBS="-L$gputile_dir/$gputile_sub -l:libnccl.so.2"
           NCCL_LIBFILE=$gputile_dir/$gputile_sub/libnccl.so.2])
        # In CUDA's own library directory: gputile.pc names it through
        # ${cuda_prefix} already (no second literal path).
        AS_IF([test -n "$NCCL_LIBS" && test "x$gputile_dir/$gputile_sub" = "x$CUDA_LIBDIR"],
          [NCCL_PC_LIBS=`echo "$NCCL_LIBS" | sed 's/^-L[[^ ]]* //'`])
      done
      AS_IF([test -n "$NCCL_LIBS"], [NCCL_CPPFLAGS="-I$gputile_dir/include"; break])])
  done
  AS_IF([test -z "$NCCL_LIBS" && test "x$with_nccl" = xyes],
    [NCCL_LIBS="-lnccl"; NCCL_LIBFILE=nccl]) # the compiler's default paths
  AC_MSG_RESULT([${NCCL_CPPFLAGS:-default paths} ${NCCL_LIBS:-none}])
  AS_IF([test -z "$NCCL_LIBS"],
    [AC_MSG_ERROR([--with-nccl=$with_nccl: no include/nccl.h with lib64/ or lib/ libnccl.so(.2) under $with_nccl])])
  gputile_save_CPPFLAGS=$CPPFLAGS
  gputile_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS $NCCL_CPPFLAGS"
  LIBS="$NCCL_LIBS $CUDA_LDFLAGS -lcudart_static -ldl -lrt -lpthread $LIBS"
  AC_CHECK_HEADER([nccl.h], [],
    [AC_MSG_ERROR([--with-nccl: nccl.h not found (${NCCL_CPPFLAGS:-default include paths})])])
  AC_MSG_CHECKING([whether a C program links with NCCL])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <nccl.h>]],
      [[int v; ncclUniqueId id; (void)id; return (int)ncclGetVersion(&v);]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no]); AC_MSG_ERROR([--with-nccl: cannot link NCCL with $NCCL_LIBS])])
  CPPFLAGS=$gputile_save_CPPFLAGS
  LIBS=$gputile_save_LIBS
  AS_IF([test -z "$NCCL_PC_LIBS"], [NCCL_PC_LIBS=$NCCL_LIBS])
  have_nccl=yes])
AC_SUBST([NCCL_CPPFLAGS])
AC_SUBST([NCCL_LIBS])
AC_SUBST([NCCL_PC_LIBS])
AC_SUBST([NCCL_LIBFILE])
AM_CONDITIONAL([HAVE_NCCL], [test "x$have_nccl" = xyes])
])
