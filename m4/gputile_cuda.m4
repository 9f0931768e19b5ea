# SPDX-License-Identifier: MIT
# GPUTILE_CHECK_CUDA
# Finds nvcc: DIR/bin/nvcc under --with-cuda=DIR, else nvcc on PATH, else in
# /usr/local/cuda/bin. The CUDA prefix is DIR itself, or else the parent of
# the directory that holds the real nvcc: symlinks are resolved (nvcc's own,
# then readlink -f when that prefix has no runtime) and a wrapper script is
# asked where its compiler runs (nvcc -dryrun prints it as _HERE_). The
# prefix must hold CUDA's static runtime,
# lib64/libcudart_static.a (or lib/). --without-cuda is an error: the
# library is CUDA code. Sets NVCC, CUDA_PREFIX, CUDA_LIBDIR,
# CUDA_LIBDIR_NAME, CUDA_CPPFLAGS, CUDA_LDFLAGS and the architecture flags
# CUDA_ARCH_FLAGS, checks that cudart (static) links, and looks for cuBLAS,
# which only the tests and the benchmark use.
AC_DEFUN([GPUTILE_CHECK_CUDA], [
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit prefix, the directory that holds bin/nvcc and lib64/libcudart_static.a (default: nvcc on PATH, else /usr/local/cuda)])],
  [], [with_cuda=])
AC_ARG_VAR([NVCC], [CUDA compiler])
AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
AC_ARG_VAR([CUDA_ARCH_FLAGS], [nvcc architecture flags (default: sm_90 machine code plus compute_90 PTX)])

AS_CASE([$with_cuda],
  [no], [AC_MSG_ERROR([--without-cuda: libgputile is CUDA code and cannot be built without the CUDA toolkit (nvcc, the CUDA headers, libcudart_static.a); leave the option out, or pass --with-cuda=DIR])],
  [yes|""],
    [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])
     AS_IF([test -z "$NVCC"],
       [AC_MSG_ERROR([nvcc not found on PATH nor in /usr/local/cuda/bin: put the CUDA toolkit's bin/ on PATH, or pass --with-cuda=DIR])])],
    [AS_IF([test ! -d "$with_cuda"],
       [AC_MSG_ERROR([--with-cuda=$with_cuda: $with_cuda does not exist (or is not a directory)])])
     AS_IF([test ! -f "$with_cuda/bin/nvcc" || test ! -x "$with_cuda/bin/nvcc"],
       [AC_MSG_ERROR([--with-cuda=$with_cuda: $with_cuda has no bin/nvcc; DIR is the CUDA toolkit's prefix, the directory that holds bin/nvcc])])
     AC_PATH_PROG([NVCC], [nvcc], [], [$with_cuda/bin])])

AC_MSG_CHECKING([for the CUDA prefix])
AS_IF([test -n "$with_cuda" && test "x$with_cuda" != xyes],
  [CUDA_PREFIX=`cd "$with_cuda" && pwd`],
  [# The real compiler: nvcc's own symlinks followed (/usr/bin/nvcc ->
   # /usr/local/cuda/bin/nvcc gives /usr/local/cuda, kept as named so that
   # gputile.pc does not name one toolkit release), and a wrapper script
   # asked where the compiler it runs lives (nvcc -dryrun prints _HERE_).
   gputile_nvcc=$NVCC
   gputile_links=0
   while test -h "$gputile_nvcc" && test $gputile_links -lt 40; do
     gputile_target=`readlink "$gputile_nvcc"`
     AS_CASE([$gputile_target],
       [/*], [gputile_nvcc=$gputile_target],
       [gputile_nvcc=`dirname "$gputile_nvcc"`/$gputile_target])
     gputile_links=`expr $gputile_links + 1`
   done
   AS_IF([head -c 2 "$gputile_nvcc" 2>/dev/null | grep '^#!' >/dev/null],
     [gputile_here=`"$NVCC" -dryrun -E -x cu /dev/null 2>&1 | sed -n 's/^#\$ _HERE_=//p' | sed -n 1p`
      AS_IF([test -n "$gputile_here" && test -f "$gputile_here/nvcc"],
        [gputile_nvcc=$gputile_here/nvcc])])
   CUDA_PREFIX=`dirname "$gputile_nvcc"`
   CUDA_PREFIX=`cd "$CUDA_PREFIX/.." && pwd`
   # bin/ itself a link into another tree: the fully resolved path (readlink -f)
   AS_IF([test ! -f "$CUDA_PREFIX/lib64/libcudart_static.a" && test ! -f "$CUDA_PREFIX/lib/libcudart_static.a"],
     [gputile_nvcc=`readlink -f "$gputile_nvcc" 2>/dev/null`
      AS_IF([test -n "$gputile_nvcc"],
        [CUDA_PREFIX=`dirname "$gputile_nvcc"`
         CUDA_PREFIX=`cd "$CUDA_PREFIX/.." && pwd`])])])
AC_MSG_RESULT([$CUDA_PREFIX])
AS_IF([test -f "$CUDA_PREFIX/lib64/libcudart_static.a"],
  [CUDA_LIBDIR_NAME=lib64],
  [test -f "$CUDA_PREFIX/lib/libcudart_static.a"],
  [CUDA_LIBDIR_NAME=lib],
  [AS_IF([test -n "$with_cuda" && test "x$with_cuda" != xyes],
     [AC_MSG_ERROR([--with-cuda=$with_cuda: no $CUDA_PREFIX/lib64/libcudart_static.a (nor lib/): libgputile links CUDA's static runtime; is $with_cuda the whole toolkit?])],
     [AC_MSG_ERROR([no $CUDA_PREFIX/lib64/libcudart_static.a (nor lib/), in the CUDA prefix taken from $NVCC: libgputile links CUDA's static runtime; pass --with-cuda=DIR, the toolkit's prefix])])])
CUDA_LIBDIR=$CUDA_PREFIX/$CUDA_LIBDIR_NAME
CUDA_CPPFLAGS="-I$CUDA_PREFIX/include"
CUDA_LDFLAGS="-L$CUDA_LIBDIR"
: ${CUDA_ARCH_FLAGS="-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"}
AC_SUBST([CUDA_PREFIX])
AC_SUBST([CUDA_LIBDIR])
AC_SUBST([CUDA_LIBDIR_NAME])
AC_SUBST([CUDA_CPPFLAGS])
AC_SUBST([CUDA_LDFLAGS])

gputile_save_CPPFLAGS=$CPPFLAGS
gputile_save_LDFLAGS=$LDFLAGS
gputile_save_LIBS=$LIBS
CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
LDFLAGS="$LDFLAGS $CUDA_LDFLAGS"
AC_CHECK_HEADER([cuda_runtime_api.h], [],
  [AC_MSG_ERROR([cuda_runtime_api.h not found under $CUDA_PREFIX/include])])
LIBS="-lcudart_static -ldl -lrt -lpthread $LIBS"
AC_MSG_CHECKING([whether a C program links with cudart_static])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <cuda_runtime_api.h>]], [[int n; return (int)cudaGetDeviceCount(&n);]])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no]); AC_MSG_ERROR([cannot link cudart_static from $CUDA_LIBDIR])])
LIBS=$gputile_save_LIBS
AC_CHECK_HEADER([cublas_v2.h],
  [AC_CHECK_LIB([cublas], [cublasCreate_v2], [have_cublas=yes], [have_cublas=no])],
  [have_cublas=no])
CPPFLAGS=$gputile_save_CPPFLAGS
LDFLAGS=$gputile_save_LDFLAGS
LIBS=$gputile_save_LIBS
AM_CONDITIONAL([HAVE_CUBLAS], [test "x$have_cublas" = xyes])
AS_IF([test "x$have_cublas" = xno],
  [AC_MSG_WARN([cuBLAS not found: the GPU test suites and gputile-bench need it])])
])
