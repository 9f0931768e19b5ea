/* SPDX-License-Identifier: MIT */
/*
 * gputile_abi.c: the public ABI of libgputile as one object with DWARF, for
 * libabigail (tests/abi.sh; the baseline is abi/gputile.abi).
 *
 * Built with -g into a shared object, it exports two variables whose types
 * carry the whole ABI:
 *  - gputile_abi_functions: a pointer to every public function, so each
 *    signature (return type, parameter types, the structs and enums they
 *    name) is in the DWARF; the facade's static inline functions too, as
 *    their signatures are part of what embedders compile against;
 *  - gputile_abi_types: one member of every public type, so struct layouts
 *    and enum values are there even for types no signature names, and the
 *    values of the public macros (flags, limits) as an enum.
 * tests/abi.sh checks that every function the headers declare is listed.
 * The version macros are left out: they change with every release.
 */
#include "gputile.h"
#include "gputile_facade.h"

#define FN(name) __typeof__(name) *name

struct gputile_abi_function_table {
    FN(gputile_strerror);
    FN(gputile_status_name);
    FN(gputile_last_cuda_error);
    FN(gputile_last_cuda_error_name);
    FN(gputile_version);
    FN(gputile_version_string);
    FN(gputile_device_alloc);
    FN(gputile_device_free);
    FN(gputile_matrix_copy);
    FN(gputile_gemm);
    FN(gputile_matmul);
    FN(gputile_algorithm_name);
    FN(gputile_histogram_i32);
    FN(gputile_histogram_f32);
    FN(gputile_histogram_plan);
    FN(gputile_hist_tier_name);
    FN(gputile_pinned_alloc);
    FN(gputile_pinned_free);
    FN(gputile_pinned_register);
    FN(gputile_pinned_unregister);
    FN(gputile_pinned_device_pointer);
    FN(gputile_pool_alloc);
    FN(gputile_pool_free);
    FN(gputile_pool_set_limit);
    FN(gputile_pool_release);
    FN(gputile_pool_get_stats);
    FN(gputile_copy);
    FN(gputile_copy_cache);
    FN(gputile_copy_uncache);
    /* batched GEMM (issue 20) */
    FN(gputile_gemm_strided_batched);
    FN(gputile_gemm_batched);
    /* beyond one GPU (issue 22) */
    FN(gputile_last_nccl_error);
    FN(gputile_last_nccl_error_name);
    FN(gputile_dist_histogram_i32);
    FN(gputile_dist_histogram_f32);
    FN(gputile_dist_histogram_reduce);
    FN(gputile_dist_block);
    FN(gputile_dist_gemm);
    FN(gputile_gemm_devices);
    FN(gputile_histogram_even);
    FN(gputile_histogram_range);
    /* gputile_facade.h (static inline) */
    FN(gputile_matrix_view);
    FN(gputile_get_element);
    FN(gputile_set_element);
    FN(gputile_get_submatrix);
    FN(gputile_submatrix);
    FN(gputile_matrix_alloc_device);
    FN(gputile_matrix_free_device);
};

/* The macros' values: a change of any of them changes this enum. */
enum gputile_abi_macros {
    gputile_abi_MAX_SPLIT_K = GPUTILE_MAX_SPLIT_K,
    gputile_abi_PINNED_DEFAULT = GPUTILE_PINNED_DEFAULT,
    gputile_abi_PINNED_PORTABLE = GPUTILE_PINNED_PORTABLE,
    gputile_abi_PINNED_MAPPED = GPUTILE_PINNED_MAPPED,
    gputile_abi_PINNED_WRITE_COMBINED = GPUTILE_PINNED_WRITE_COMBINED,
    gputile_abi_POOL_DEFAULT_LIMIT_MIB = (int)(GPUTILE_POOL_DEFAULT_LIMIT >> 20),
    gputile_abi_DEVICE_ROW_ALIGN = GPUTILE_DEVICE_ROW_ALIGN,
    gputile_abi_DIST_ALL_RANKS = GPUTILE_DIST_ALL_RANKS, /* issue 22 */
    gputile_abi_DIST_PANEL = GPUTILE_DIST_PANEL,
    gputile_abi_HIST_MAX_BINS = GPUTILE_HIST_MAX_BINS
};

struct gputile_abi_type_table {
    gputile_status status;
    gputile_matrix matrix;
    gputile_op op;
    gputile_algorithm algorithm;
    gputile_precision precision;
    gputile_gemm_options gemm_options;
    gputile_hist_tier hist_tier;
    gputile_hist_mode hist_mode;
    gputile_histogram_options histogram_options;
    gputile_pool_stats pool_stats;
    gputile_dist_layout dist_layout; /* issue 22 */
    gputile_sample_type sample_type;
    gputile_hist_input hist_input;
    gputile_hist_even hist_even;
    enum gputile_abi_macros macros;
};

#define REF(name) .name = name
const struct gputile_abi_function_table gputile_abi_functions = {
    REF(gputile_strerror), REF(gputile_status_name), REF(gputile_last_cuda_error),
    REF(gputile_last_cuda_error_name), REF(gputile_version), REF(gputile_version_string),
    REF(gputile_device_alloc), REF(gputile_device_free), REF(gputile_matrix_copy),
    REF(gputile_gemm), REF(gputile_matmul), REF(gputile_algorithm_name),
    REF(gputile_histogram_i32), REF(gputile_histogram_f32), REF(gputile_histogram_plan),
    REF(gputile_hist_tier_name), REF(gputile_pinned_alloc), REF(gputile_pinned_free),
    REF(gputile_pinned_register), REF(gputile_pinned_unregister),
    REF(gputile_pinned_device_pointer), REF(gputile_pool_alloc), REF(gputile_pool_free),
    REF(gputile_pool_set_limit), REF(gputile_pool_release), REF(gputile_pool_get_stats),
    REF(gputile_copy), REF(gputile_matrix_view), REF(gputile_get_element),
    REF(gputile_set_element), REF(gputile_get_submatrix), REF(gputile_submatrix),
    REF(gputile_matrix_alloc_device), REF(gputile_matrix_free_device),
    /* issue 22 */
    REF(gputile_last_nccl_error), REF(gputile_last_nccl_error_name),
    REF(gputile_dist_histogram_i32), REF(gputile_dist_histogram_f32),
    REF(gputile_dist_histogram_reduce), REF(gputile_dist_block), REF(gputile_dist_gemm),
    REF(gputile_gemm_devices),
    REF(gputile_histogram_even), REF(gputile_histogram_range),
};
struct gputile_abi_type_table gputile_abi_types;
