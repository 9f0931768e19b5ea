#!/bin/sh
# SPDX-License-Identifier: MIT
# headers.sh: the public headers compile as C99, C11 and C++ with no CUDA
# header on the include path, warning-free; the facade adds no symbol; and
# under nvcc the facade's accessors work in device code. TAP output.
set -u
inc="-I$top_srcdir/include -I$top_builddir/include"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0; fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; sed 's/^/# /' "$tmp/log"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

cat > "$tmp/use.c" <<'C'
#include <gputile.h>
#include <gputile_facade.h>
float use_facade(float *p);
float use_facade(float *p)
{
    gputile_matrix m = gputile_matrix_view(p, 4, 4, 4), s;
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    if (gputile_submatrix(m, 1, 1, 2, 2, &s) != GPUTILE_SUCCESS || o.algorithm != GPUTILE_ALGO_AUTO)
        return 0.0f;
    gputile_set_element(s, 0, 0, 1.0f);
    return gputile_get_element(gputile_get_submatrix(m, 1, 1, 1, 1), 0, 0);
}
C
# A C-only include path: only our headers, no /usr/local/cuda/include.
for std in c99 c11; do
    if $CC -std=$std -pedantic -Wall -Wextra -Werror -Wstrict-prototypes $inc -c "$tmp/use.c" -o "$tmp/use_$std.o" >"$tmp/log" 2>&1
    then ok "headers compile as $std -pedantic -Werror"; else not_ok "headers compile as $std"; fi
done
cp "$tmp/use.c" "$tmp/use.cpp"
for std in c++11 c++17; do
    if $CXX -std=$std -pedantic -Wall -Wextra -Werror $inc -c "$tmp/use.cpp" -o "$tmp/use_$std.o" >"$tmp/log" 2>&1
    then ok "headers compile as $std -pedantic -Werror"; else not_ok "headers compile as $std"; fi
done

# The facade is static inline: the object defines only use_facade and refers
# to nothing but gputile_ symbols (and the compiler's own __ helpers,
# such as __stack_chk_fail where the stack protector is on by default).
defined=$($NM --defined-only -g "$tmp/use_c11.o" | awk '{print $3}' | tr '\n' ' ')
undefined=$($NM -u "$tmp/use_c11.o" | awk '{print $2}' | grep -vE '^(gputile_|__)' | tr '\n' ' ')
echo "defined: $defined; undefined: $undefined" > "$tmp/log"
if [ "$defined" = "use_facade " ] && [ -z "$undefined" ]
then ok "the facade adds no symbol"; else not_ok "the facade adds no symbol"; fi

# No CUDA header may be needed: the headers include none.
if grep -nE '#include *[<"](cuda|cublas|driver_types)' "$top_srcdir/include/gputile.h" \
       "$top_srcdir/include/gputile_facade.h" >"$tmp/log"
then not_ok "public headers include no CUDA header"; else ok "public headers include no CUDA header"; fi

# Under nvcc, the accessors are __host__ __device__: a user kernel uses them.
if [ -z "${NVCC:-}" ]; then
    skip "facade accessors in device code" "no nvcc"
else
    cat > "$tmp/kern.cu" <<'CU'
#include <gputile_facade.h>
__global__ void scale(gputile_matrix m, float f)
{
    gputile_matrix s = gputile_get_submatrix(m, blockIdx.y, blockIdx.x, 1, 1);
    gputile_set_element(s, 0, 0, f * gputile_get_element(s, 0, 0));
}
CU
    # shellcheck disable=SC2086
    if $NVCC $CUDA_ARCH_FLAGS $inc -c "$tmp/kern.cu" -o "$tmp/kern.o" >"$tmp/log" 2>&1
    then ok "facade accessors compile in device code (nvcc)"; else not_ok "facade accessors in device code"; fi
fi
echo "1..$n"
exit 0
