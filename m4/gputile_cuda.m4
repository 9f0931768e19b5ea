# SPDX-License-Identifier: MIT
# GPUTILE_CHECK_CUDA
# Finds nvcc: under --with-cuda=DIR when given, else on PATH, else in
# /usr/local/cuda. Sets NVCC, CUDA_PREFIX, CUDA_LIBDIR, CUDA_CPPFLAGS,
# CUDA_LDFLAGS and the architecture flags CUDA_ARCH_FLAGS, checks that
# cudart (static) links, and looks for cuBLAS, which only the tests and
# the benchmark use.
AC_DEFUN([GPUTILE_CHECK_CUDA], [
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit prefix (default: nvcc on PATH, else /usr/local/cuda)])],
  [], [with_cuda=])
AC_ARG_VAR([NVCC], [CUDA compiler])
AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
AC_ARG_VAR([CUDA_ARCH_FLAGS], [nvcc architecture flags (default: sm_90 machine code plus compute_90 PTX)])

AS_CASE([$with_cuda],
  [yes|no|""], [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])],
  [AC_PATH_PROG([NVCC], [nvcc], [], [$with_cuda/bin])])
AS_IF([test -z "$NVCC"],
  [AC_MSG_ERROR([nvcc not found: put the CUDA toolkit's bin/ on PATH, or pass --with-cuda=DIR (looked on PATH, in ${with_cuda:-/usr/local/cuda}/bin)])])

AS_IF([test -n "$with_cuda" && test "x$with_cuda" != xyes && test "x$with_cuda" != xno],
  [CUDA_PREFIX=$with_cuda],
  [CUDA_PREFIX=`dirname "$NVCC"`; CUDA_PREFIX=`cd "$CUDA_PREFIX/.." && pwd`])
AS_IF([test -d "$CUDA_PREFIX/lib64"], [CUDA_LIBDIR=$CUDA_PREFIX/lib64], [CUDA_LIBDIR=$CUDA_PREFIX/lib])
AS_IF([test -d "$CUDA_PREFIX/lib64"], [CUDA_LIBDIR_NAME=lib64], [CUDA_LIBDIR_NAME=lib])
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
