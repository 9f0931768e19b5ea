bench/histogram_ref.o : bench/histogram_ref.cu \
    /usr/include/stdc-predef.h \
    /usr/local/cuda/include/cuda_runtime.h \
    /usr/local/cuda/include/crt/host_config.h \
    /usr/include/features.h \
    /usr/include/features-time64.h \
    /usr/include/x86_64-linux-gnu/bits/wordsize.h \
    /usr/include/x86_64-linux-gnu/bits/timesize.h \
    /usr/include/x86_64-linux-gnu/sys/cdefs.h \
    /usr/include/x86_64-linux-gnu/bits/long-double.h \
    /usr/include/x86_64-linux-gnu/gnu/stubs.h \
    /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
    /usr/local/cuda/include/builtin_types.h \
    /usr/local/cuda/include/device_types.h \
    /usr/local/cuda/include/crt/host_defines.h \
    /usr/include/ctype.h \
    /usr/include/x86_64-linux-gnu/bits/types.h \
    /usr/include/x86_64-linux-gnu/bits/typesizes.h \
    /usr/include/x86_64-linux-gnu/bits/time64.h \
    /usr/include/x86_64-linux-gnu/bits/endian.h \
    /usr/include/x86_64-linux-gnu/bits/endianness.h \
    /usr/include/x86_64-linux-gnu/bits/types/locale_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/__locale_t.h \
    /usr/local/cuda/include/driver_types.h \
    /usr/local/cuda/include/vector_types.h \
    /usr/lib/gcc/x86_64-linux-gnu/12/include/limits.h \
    /usr/lib/gcc/x86_64-linux-gnu/12/include/syslimits.h \
    /usr/include/limits.h \
    /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
    /usr/include/x86_64-linux-gnu/bits/posix1_lim.h \
    /usr/include/x86_64-linux-gnu/bits/local_lim.h \
    /usr/include/linux/limits.h \
    /usr/include/x86_64-linux-gnu/bits/pthread_stack_min-dynamic.h \
    /usr/include/x86_64-linux-gnu/bits/posix2_lim.h \
    /usr/include/x86_64-linux-gnu/bits/xopen_lim.h \
    /usr/include/x86_64-linux-gnu/bits/uio_lim.h \
    /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
    /usr/local/cuda/include/surface_types.h \
    /usr/local/cuda/include/texture_types.h \
    /usr/local/cuda/include/library_types.h \
    /usr/local/cuda/include/channel_descriptor.h \
    /usr/local/cuda/include/cuda_runtime_api.h \
    /usr/local/cuda/include/cuda_device_runtime_api.h \
    /usr/include/c++/12/stdlib.h \
    /usr/include/c++/12/cstdlib \
    /usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/os_defines.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/cpu_defines.h \
    /usr/include/c++/12/pstl/pstl_config.h \
    /usr/include/stdlib.h \
    /usr/include/x86_64-linux-gnu/bits/waitflags.h \
    /usr/include/x86_64-linux-gnu/bits/waitstatus.h \
    /usr/include/x86_64-linux-gnu/bits/floatn.h \
    /usr/include/x86_64-linux-gnu/bits/floatn-common.h \
    /usr/include/x86_64-linux-gnu/sys/types.h \
    /usr/include/x86_64-linux-gnu/bits/types/clock_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/clockid_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/time_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/timer_t.h \
    /usr/include/x86_64-linux-gnu/bits/stdint-intn.h \
    /usr/include/endian.h \
    /usr/include/x86_64-linux-gnu/bits/byteswap.h \
    /usr/include/x86_64-linux-gnu/bits/uintn-identity.h \
    /usr/include/x86_64-linux-gnu/sys/select.h \
    /usr/include/x86_64-linux-gnu/bits/select.h \
    /usr/include/x86_64-linux-gnu/bits/types/sigset_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/__sigset_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct_timeval.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct_timespec.h \
    /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h \
    /usr/include/x86_64-linux-gnu/bits/thread-shared-types.h \
    /usr/include/x86_64-linux-gnu/bits/pthreadtypes-arch.h \
    /usr/include/x86_64-linux-gnu/bits/atomic_wide_counter.h \
    /usr/include/x86_64-linux-gnu/bits/struct_mutex.h \
    /usr/include/x86_64-linux-gnu/bits/struct_rwlock.h \
    /usr/include/alloca.h \
    /usr/include/x86_64-linux-gnu/bits/stdlib-bsearch.h \
    /usr/include/x86_64-linux-gnu/bits/stdlib-float.h \
    /usr/include/c++/12/bits/std_abs.h \
    /usr/local/cuda/include/driver_functions.h \
    /usr/local/cuda/include/vector_functions.h \
    /usr/local/cuda/include/vector_functions.hpp \
    /usr/local/cuda/include/crt/common_functions.h \
    /usr/include/string.h \
    /usr/include/strings.h \
    /usr/include/time.h \
    /usr/include/x86_64-linux-gnu/bits/time.h \
    /usr/include/x86_64-linux-gnu/bits/timex.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct_tm.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct_itimerspec.h \
    /usr/include/c++/12/new \
    /usr/include/c++/12/bits/exception.h \
    /usr/include/stdio.h \
    /usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h \
    /usr/include/x86_64-linux-gnu/bits/types/__fpos_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/__mbstate_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/__fpos64_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/__FILE.h \
    /usr/include/x86_64-linux-gnu/bits/types/FILE.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct_FILE.h \
    /usr/include/x86_64-linux-gnu/bits/types/cookie_io_functions_t.h \
    /usr/include/x86_64-linux-gnu/bits/stdio_lim.h \
    /usr/include/x86_64-linux-gnu/bits/stdio.h \
    /usr/include/assert.h \
    /usr/local/cuda/include/crt/math_functions.h \
    /usr/include/c++/12/math.h \
    /usr/include/c++/12/cmath \
    /usr/include/c++/12/bits/cpp_type_traits.h \
    /usr/include/c++/12/ext/type_traits.h \
    /usr/include/math.h \
    /usr/include/x86_64-linux-gnu/bits/math-vector.h \
    /usr/include/x86_64-linux-gnu/bits/libm-simd-decl-stubs.h \
    /usr/include/x86_64-linux-gnu/bits/flt-eval-method.h \
    /usr/include/x86_64-linux-gnu/bits/fp-logb.h \
    /usr/include/x86_64-linux-gnu/bits/fp-fast.h \
    /usr/include/x86_64-linux-gnu/bits/mathcalls-helper-functions.h \
    /usr/include/x86_64-linux-gnu/bits/mathcalls.h \
    /usr/include/x86_64-linux-gnu/bits/mathcalls-narrow.h \
    /usr/include/x86_64-linux-gnu/bits/iscanonical.h \
    /usr/include/c++/12/bits/specfun.h \
    /usr/include/c++/12/bits/stl_algobase.h \
    /usr/include/c++/12/bits/functexcept.h \
    /usr/include/c++/12/bits/exception_defines.h \
    /usr/include/c++/12/ext/numeric_traits.h \
    /usr/include/c++/12/bits/stl_pair.h \
    /usr/include/c++/12/type_traits \
    /usr/include/c++/12/bits/move.h \
    /usr/include/c++/12/bits/utility.h \
    /usr/include/c++/12/bits/stl_iterator_base_types.h \
    /usr/include/c++/12/bits/stl_iterator_base_funcs.h \
    /usr/include/c++/12/bits/concept_check.h \
    /usr/include/c++/12/debug/assertions.h \
    /usr/include/c++/12/bits/stl_iterator.h \
    /usr/include/c++/12/bits/ptr_traits.h \
    /usr/include/c++/12/debug/debug.h \
    /usr/include/c++/12/bits/predefined_ops.h \
    /usr/include/c++/12/limits \
    /usr/include/c++/12/tr1/gamma.tcc \
    /usr/include/c++/12/tr1/special_function_util.h \
    /usr/include/c++/12/tr1/bessel_function.tcc \
    /usr/include/c++/12/tr1/beta_function.tcc \
    /usr/include/c++/12/tr1/ell_integral.tcc \
    /usr/include/c++/12/tr1/exp_integral.tcc \
    /usr/include/c++/12/tr1/hypergeometric.tcc \
    /usr/include/c++/12/tr1/legendre_function.tcc \
    /usr/include/c++/12/tr1/modified_bessel_func.tcc \
    /usr/include/c++/12/tr1/poly_hermite.tcc \
    /usr/include/c++/12/tr1/poly_laguerre.tcc \
    /usr/include/c++/12/tr1/riemann_zeta.tcc \
    /usr/local/cuda/include/crt/math_functions.hpp \
    /usr/local/cuda/include/crt/device_functions.h \
    /usr/local/cuda/include/crt/device_functions.hpp \
    /usr/local/cuda/include/device_atomic_functions.h \
    /usr/local/cuda/include/device_atomic_functions.hpp \
    /usr/local/cuda/include/crt/device_double_functions.h \
    /usr/local/cuda/include/crt/device_double_functions.hpp \
    /usr/local/cuda/include/sm_20_atomic_functions.h \
    /usr/local/cuda/include/sm_20_atomic_functions.hpp \
    /usr/local/cuda/include/sm_32_atomic_functions.h \
    /usr/local/cuda/include/sm_32_atomic_functions.hpp \
    /usr/local/cuda/include/sm_35_atomic_functions.h \
    /usr/local/cuda/include/sm_60_atomic_functions.h \
    /usr/local/cuda/include/sm_60_atomic_functions.hpp \
    /usr/local/cuda/include/sm_20_intrinsics.h \
    /usr/local/cuda/include/sm_20_intrinsics.hpp \
    /usr/local/cuda/include/sm_30_intrinsics.h \
    /usr/local/cuda/include/sm_30_intrinsics.hpp \
    /usr/local/cuda/include/sm_32_intrinsics.h \
    /usr/local/cuda/include/sm_32_intrinsics.hpp \
    /usr/local/cuda/include/sm_35_intrinsics.h \
    /usr/local/cuda/include/sm_61_intrinsics.h \
    /usr/local/cuda/include/sm_61_intrinsics.hpp \
    /usr/local/cuda/include/crt/sm_70_rt.h \
    /usr/local/cuda/include/crt/sm_70_rt.hpp \
    /usr/local/cuda/include/crt/sm_80_rt.h \
    /usr/local/cuda/include/crt/sm_80_rt.hpp \
    /usr/local/cuda/include/crt/sm_90_rt.h \
    /usr/local/cuda/include/crt/sm_90_rt.hpp \
    /usr/local/cuda/include/crt/sm_100_rt.h \
    /usr/local/cuda/include/crt/sm_100_rt.hpp \
    /usr/local/cuda/include/texture_indirect_functions.h \
    /usr/local/cuda/include/surface_indirect_functions.h \
    /usr/local/cuda/include/crt/cudacc_ext.h \
    /usr/local/cuda/include/device_launch_parameters.h \
    /usr/include/c++/12/utility \
    /usr/include/c++/12/bits/stl_relops.h \
    /usr/include/c++/12/initializer_list \
    /usr/local/cuda/include/cooperative_groups.h \
    /usr/local/cuda/include/cooperative_groups/details/info.h \
    /usr/local/cuda/include/nv/target \
    /usr/local/cuda/include/nv/detail/__target_macros \
    /usr/local/cuda/include/nv/detail/__preprocessor \
    /usr/local/cuda-13.0/include/cccl/cuda/std/type_traits \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/__config \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/version.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/__config \
    /usr/local/cuda-13.0/include/cccl/cuda/__cccl_config \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/architecture.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/assert.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/compiler.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/preprocessor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/system_header.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/is_non_narrowing_convertible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/attributes.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/dialect.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/builtin.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/extended_data_types.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/cuda_toolkit.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/diagnostic.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/os.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/execution_space.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/deprecated.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/exceptions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/ptx_isa.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/rtti.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/sequence_access.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/unreachable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/visibility.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__internal/cpp_dialect.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__internal/features.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__internal/namespaces.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/iter_swap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/declval.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/void_t.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/swap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/enable_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_move_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_lvalue_reference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_referenceable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/integral_constant.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_same.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_rvalue_reference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_void.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_cvref.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_cv.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_const.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_volatile.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_reference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/cstddef \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cstddef/byte.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/concept_macros.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_integral.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cstddef/types.h \
    /usr/include/c++/12/cstddef \
    /usr/local/cuda-13.0/include/cccl/cuda/std/version \
    /usr/include/c++/12/version \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_move_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/conjunction.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/conditional.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/disjunction.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_base_of.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_class.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_union.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_destructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_function.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_const.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_reference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_all_extents.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/negation.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_move_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_scalar.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_arithmetic.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_floating_point.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_enum.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_array.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_member_pointer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_member_function_pointer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_pointer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_null_pointer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_move_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_swappable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/nat.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/type_identity.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/move.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_copy_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_const.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/identity.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/reference_wrapper.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/invoke.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/copy_cvref.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/decay.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_pointer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_extent.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_core_convertible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_member_object_pointer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_reference_wrapper.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/forward.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/weak_result_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binary_function.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/unary_function.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/addressof.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/hash.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/pair.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_cv.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_volatile.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/aligned_storage.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/type_list.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/type_set.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/fold.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/integer_sequence.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/aligned_union.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/alignment_of.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/always_false.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/can_extract_key.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_const_ref.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/common_reference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/common_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_extended_floating_point.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/nvfp_types.h \
    /usr/local/cuda/include/cuda_fp16.h \
    /usr/local/cuda/include/cuda_fp16.hpp \
    /usr/local/cuda/include/cuda_bf16.h \
    /usr/local/cuda/include/cuda_bf16.hpp \
    /usr/local/cuda/include/cuda_fp8.h \
    /usr/local/cuda/include/cuda_fp8.hpp \
    /usr/local/cuda/include/cuda_fp6.h \
    /usr/local/cuda/include/cuda_fp6.hpp \
    /usr/local/cuda/include/cuda_fp4.h \
    /usr/local/cuda/include/cuda_fp4.hpp \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/copy_cv.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_convertible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/dependent_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/extent.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/has_unique_object_representation.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/has_virtual_destructor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_abstract.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_aggregate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_allocator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_bounded_array.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_callable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_valid_expansion.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_char_like_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_standard_layout.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivial.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_copyable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_default_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_compound.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_fundamental.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_constant_evaluated.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_copy_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_default_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_empty.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_final.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_implicitly_default_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_integer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_signed_integer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_unsigned_integer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_literal_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_convertible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/lazy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_copy_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_copy_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_default_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_destructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_object.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_pod.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_copy_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_copy_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_destructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_polymorphic.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_primary_template.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/iterator_traits.h \
    /usr/include/c++/12/iterator \
    /usr/include/c++/12/iosfwd \
    /usr/include/c++/12/bits/stringfwd.h \
    /usr/include/c++/12/bits/memoryfwd.h \
    /usr/include/c++/12/bits/postypes.h \
    /usr/include/c++/12/cwchar \
    /usr/include/wchar.h \
    /usr/include/x86_64-linux-gnu/bits/wchar.h \
    /usr/include/x86_64-linux-gnu/bits/types/wint_t.h \
    /usr/include/x86_64-linux-gnu/bits/types/mbstate_t.h \
    /usr/include/c++/12/bits/stream_iterator.h \
    /usr/include/c++/12/bits/streambuf_iterator.h \
    /usr/include/c++/12/streambuf \
    /usr/include/c++/12/bits/localefwd.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/c++locale.h \
    /usr/include/c++/12/clocale \
    /usr/include/locale.h \
    /usr/include/x86_64-linux-gnu/bits/locale.h \
    /usr/include/c++/12/cctype \
    /usr/include/c++/12/bits/ios_base.h \
    /usr/include/c++/12/ext/atomicity.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/gthr.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/gthr-default.h \
    /usr/include/pthread.h \
    /usr/include/sched.h \
    /usr/include/x86_64-linux-gnu/bits/sched.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct_sched_param.h \
    /usr/include/x86_64-linux-gnu/bits/cpu-set.h \
    /usr/include/x86_64-linux-gnu/bits/setjmp.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct___jmp_buf_tag.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/atomic_word.h \
    /usr/include/x86_64-linux-gnu/sys/single_threaded.h \
    /usr/include/c++/12/bits/locale_classes.h \
    /usr/include/c++/12/string \
    /usr/include/c++/12/bits/char_traits.h \
    /usr/include/c++/12/cstdint \
    /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h \
    /usr/include/stdint.h \
    /usr/include/x86_64-linux-gnu/bits/stdint-uintn.h \
    /usr/include/c++/12/bits/allocator.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/c++allocator.h \
    /usr/include/c++/12/bits/new_allocator.h \
    /usr/include/c++/12/bits/ostream_insert.h \
    /usr/include/c++/12/bits/cxxabi_forced.h \
    /usr/include/c++/12/bits/stl_function.h \
    /usr/include/c++/12/backward/binders.h \
    /usr/include/c++/12/bits/refwrap.h \
    /usr/include/c++/12/bits/invoke.h \
    /usr/include/c++/12/bits/range_access.h \
    /usr/include/c++/12/bits/basic_string.h \
    /usr/include/c++/12/ext/alloc_traits.h \
    /usr/include/c++/12/bits/alloc_traits.h \
    /usr/include/c++/12/bits/stl_construct.h \
    /usr/include/c++/12/string_view \
    /usr/include/c++/12/bits/functional_hash.h \
    /usr/include/c++/12/bits/hash_bytes.h \
    /usr/include/c++/12/bits/string_view.tcc \
    /usr/include/c++/12/ext/string_conversions.h \
    /usr/include/c++/12/cstdio \
    /usr/include/c++/12/cerrno \
    /usr/include/errno.h \
    /usr/include/x86_64-linux-gnu/bits/errno.h \
    /usr/include/linux/errno.h \
    /usr/include/x86_64-linux-gnu/asm/errno.h \
    /usr/include/asm-generic/errno.h \
    /usr/include/asm-generic/errno-base.h \
    /usr/include/x86_64-linux-gnu/bits/types/error_t.h \
    /usr/include/c++/12/bits/charconv.h \
    /usr/include/c++/12/bits/basic_string.tcc \
    /usr/include/c++/12/bits/locale_classes.tcc \
    /usr/include/c++/12/system_error \
    /usr/include/x86_64-linux-gnu/c++/12/bits/error_constants.h \
    /usr/include/c++/12/stdexcept \
    /usr/include/c++/12/exception \
    /usr/include/c++/12/bits/exception_ptr.h \
    /usr/include/c++/12/bits/cxxabi_init_exception.h \
    /usr/include/c++/12/typeinfo \
    /usr/include/c++/12/bits/nested_exception.h \
    /usr/include/c++/12/bits/streambuf.tcc \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_scoped_enum.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/underlying_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_signed.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_move_assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_move_constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_unbounded_array.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_unsigned.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_volatile.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_const_lvalue_ref.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_nbit_int.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/cstdint \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_signed.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_unsigned.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/maybe_const.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/promote.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/rank.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/reference_constructs_from_temporary.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/reference_converts_from_temporary.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_pointer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/result_of.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/convert_to_integral.h \
    /usr/local/cuda/include/cooperative_groups/details/driver_abi.h \
    /usr/local/cuda/include/cooperative_groups/details/helpers.h \
    /usr/local/cuda/include/cooperative_groups/details/sync.h \
    /usr/local/cuda/include/cooperative_groups/details/memory.h \
    /usr/local/cuda-13.0/include/cccl/cuda/atomic \
    /usr/local/cuda-13.0/include/cccl/cuda/__atomic/atomic.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/atomic \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/platform.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/order.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/scopes.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/wait/polling.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/base.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/cassert \
    /usr/include/c++/12/cassert \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/common.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated_helper.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_local.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/common.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/cstring \
    /usr/include/c++/12/cstring \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/host.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/locked.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/reference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/small.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__thread/threading_support.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/chrono \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/chrono \
    /usr/include/c++/12/chrono \
    /usr/include/c++/12/bits/chrono.h \
    /usr/include/c++/12/ratio \
    /usr/include/c++/12/ctime \
    /usr/include/c++/12/bits/parse_numbers.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/ctime \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/ctime \
    /usr/local/cuda-13.0/include/cccl/cuda/std/limits \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__limits/numeric_limits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/bit_cast.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/climits \
    /usr/include/c++/12/climits \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__limits/numeric_limits_ext.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/storage.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/format.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/cfloat \
    /usr/include/c++/12/cfloat \
    /usr/lib/gcc/x86_64-linux-gnu/12/include/float.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/ratio \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/ratio \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cuda/chrono.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__thread/threading_support_cuda.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/wait/notify_wait.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/api/owned.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/api/common.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/api/reference.h \
    /usr/local/cuda/include/cooperative_groups/details/partitioning.h \
    /usr/local/cuda/include/cooperative_groups/details/invoke.h \
    /usr/local/cuda-13.0/include/cccl/cub/device/device_histogram.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/config.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_arch.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_cpp_dialect.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_macro.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/detail/detect_cuda_runtime.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_namespace.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/version.cuh \
    /usr/local/cuda-13.0/include/cccl/cuda/version \
    /usr/local/cuda-13.0/include/cccl/cuda/std/utility \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/hash.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/pair.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/unwrap_ref.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/get.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/copyable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/assignable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/common_reference_with.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/convertible_to.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/same_as.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/constructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/destructible.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/movable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/swappable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/class_or_enum.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/exchange.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/array.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/complex.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/subrange.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/concepts.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/arithmetic.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/derived_from.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/equality_comparable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/boolean_testable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/invocable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/predicate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/regular.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/semiregular.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/relation.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/totally_ordered.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/incrementable_traits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iter_move.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iterator_traits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/readable_traits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/priority_tag.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/pointer_traits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/tuple.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_element.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_indices.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_types.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/sfinae_helpers.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/make_tuple_types.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_size.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_like_ext.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/structured_bindings.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/piecewise_construct.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/construct_at.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/access.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/voidify.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/as_const.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/auto_cast.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/cmp.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/forward_like.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/in_place.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/monostate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/rel_ops.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/to_underlying.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__utility/unreachable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/concepts \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/common_with.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/different_from.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/initializer_list \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/ignore.h \
    /usr/local/cuda-13.0/include/cccl/cuda/cmath \
    /usr/local/cuda-13.0/include/cccl/cuda/__cmath/ceil_div.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/min.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/comp.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/comp_ref_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/min_element.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__cmath/ilog.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/integral.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/bfind.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/ptx_dot_variants.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/ptx_helper_functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/bfind.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/shl.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/shl.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/shr.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/shr.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/max.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/max_element.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/countl.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/clz.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/rounding_functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/array \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/array \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/equal.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/distance.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/access.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/enable_borrowed_range.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/concepts.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/data.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/reverse_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/unwrap_iter.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/advance.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iter_swap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/next.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/prev.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/enable_view.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/size.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/fill_n.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/lexicographical_compare.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/swap_ranges.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/iterator_operations.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/ranges_iterator_concept.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/stdexcept \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__exception/terminate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/cstdlib \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/abs.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/aligned_alloc.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/malloc.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/div.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/data.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/empty.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/reverse_access.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/size.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__cmath/round_down.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__cmath/round_up.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/cmath \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/cmath \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/abs.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/signbit.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/fp.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/cast.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/common_type.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/conversion_rank_order.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/mask.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/copysign.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isinf.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isnan.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/popcount.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/popc.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/exponential_functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/fpclassify.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/gamma.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/hyperbolic_functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/hypot.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/min_max.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/roots.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/inverse_hyperbolic_functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/inverse_trigonometric_functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isfinite.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isnormal.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/lerp.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/logarithms.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/traits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_extended_arithmetic.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/trigonometric_functions.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/nvfp16.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/nvbf16.h \
    /usr/local/cuda-13.0/include/cccl/cub/detail/nvtx.cuh \
    /usr/local/cuda/include/nvtx3/nvtx3.hpp \
    /usr/local/cuda/include/nvtx3/nvToolsExt.h \
    /usr/local/cuda/include/nvtx3/nvtxDetail/nvtxLinkOnce.h \
    /usr/local/cuda/include/nvtx3/nvtxDetail/nvtxTypes.h \
    /usr/local/cuda/include/nvtx3/nvtxDetail/nvtxImpl.h \
    /usr/include/unistd.h \
    /usr/include/x86_64-linux-gnu/bits/posix_opt.h \
    /usr/include/x86_64-linux-gnu/bits/environments.h \
    /usr/include/x86_64-linux-gnu/bits/confname.h \
    /usr/include/x86_64-linux-gnu/bits/getopt_posix.h \
    /usr/include/x86_64-linux-gnu/bits/getopt_core.h \
    /usr/include/x86_64-linux-gnu/bits/unistd_ext.h \
    /usr/include/linux/close_range.h \
    /usr/include/dlfcn.h \
    /usr/include/x86_64-linux-gnu/bits/dlfcn.h \
    /usr/include/x86_64-linux-gnu/bits/dl_find_object.h \
    /usr/include/fcntl.h \
    /usr/include/x86_64-linux-gnu/bits/fcntl.h \
    /usr/include/x86_64-linux-gnu/bits/fcntl-linux.h \
    /usr/include/x86_64-linux-gnu/bits/types/struct_iovec.h \
    /usr/include/linux/falloc.h \
    /usr/include/x86_64-linux-gnu/bits/stat.h \
    /usr/include/x86_64-linux-gnu/bits/struct_stat.h \
    /usr/local/cuda/include/nvtx3/nvtxDetail/nvtxInitDecls.h \
    /usr/local/cuda/include/nvtx3/nvtxDetail/nvtxImplCore.h \
    /usr/local/cuda/include/nvtx3/nvtxDetail/nvtxInitDefs.h \
    /usr/local/cuda/include/nvtx3/nvtxDetail/nvtxInit.h \
    /usr/include/c++/12/memory \
    /usr/include/c++/12/bits/stl_uninitialized.h \
    /usr/include/c++/12/bits/stl_tempbuf.h \
    /usr/include/c++/12/bits/stl_raw_storage_iter.h \
    /usr/include/c++/12/bits/align.h \
    /usr/include/c++/12/bit \
    /usr/include/c++/12/bits/uses_allocator.h \
    /usr/include/c++/12/bits/unique_ptr.h \
    /usr/include/c++/12/tuple \
    /usr/include/c++/12/bits/shared_ptr.h \
    /usr/include/c++/12/bits/shared_ptr_base.h \
    /usr/include/c++/12/bits/allocated_ptr.h \
    /usr/include/c++/12/ext/aligned_buffer.h \
    /usr/include/c++/12/ext/concurrence.h \
    /usr/include/c++/12/bits/shared_ptr_atomic.h \
    /usr/include/c++/12/bits/atomic_base.h \
    /usr/include/c++/12/bits/atomic_lockfree_defines.h \
    /usr/include/c++/12/backward/auto_ptr.h \
    /usr/include/c++/12/pstl/glue_memory_defs.h \
    /usr/include/c++/12/pstl/execution_defs.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/optional \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/optional \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__new_ \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__new/allocate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__new/bad_alloc.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__new/launder.h \
    /usr/local/cuda-13.0/include/cccl/cub/device/dispatch/dispatch_histogram.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/agent/agent_histogram.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/block/block_load.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/block/block_exchange.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/detail/uninitialized_copy.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_ptx.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_debug.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_type.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/detail/type_traits.cuh \
    /usr/local/cuda-13.0/include/cccl/cuda/std/functional \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binary_negate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/bind.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/bind_back.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/perfect_forward.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/tuple \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/tuple \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/allocator_arg_t.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/uses_allocator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_like.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/vector_types.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/bind_front.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binder1st.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binder2nd.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/compose.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/default_searcher.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/search.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/operations.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/function.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/allocator_destructor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/allocator_traits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/builtin_new_allocator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/unique_ptr.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/compressed_pair.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/is_transparent.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/mem_fn.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/mem_fun_ref.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/not_fn.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/pointer_to_binary_function.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/pointer_to_unary_function.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/ranges_operations.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__functional/unary_negate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/iosfwd \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/string.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/memory_resource.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/mdspan \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/mdspan.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/aligned_accessor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/has_single_bit.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/default_accessor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/assume_aligned.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/concepts.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/span \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/span \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/span.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/wrap_iter.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/extents.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/layout_left.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/empty_base.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/layout_right.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/layout_stride.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/mdspan.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/submdspan_extents.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/submdspan_helper.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/submdspan_mapping.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/discard_iterator.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config/config.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config/compiler.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config/cpp_dialect.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config/simple_defines.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config/host_system.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config/device_system.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/config/namespace.h \
    /usr/local/cuda-13.0/include/cccl/thrust/version.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/counting_iterator.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/type_traits.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_adaptor.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/use_default.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_adaptor_base.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_facade.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_facade_category.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/any_system_tag.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/execution_policy.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/device_system_tag.h \
    /usr/local/cuda-13.0/include/cccl/thrust/system/cuda/detail/execution_policy.h \
    /usr/local/cuda-13.0/include/cccl/thrust/system/cuda/config.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/allocator_aware_execution_policy.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/alignment.h \
    /usr/local/cuda-13.0/include/cccl/thrust/detail/execute_with_allocator_fwd.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/host_system_tag.h \
    /usr/local/cuda-13.0/include/cccl/thrust/system/cpp/detail/execution_policy.h \
    /usr/local/cuda-13.0/include/cccl/thrust/system/detail/sequential/execution_policy.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_category_to_system.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_categories.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_category_with_system_and_traversal.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_traversal_tags.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/iterator \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/back_insert_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/bounded_iter.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/default_sentinel.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/erase_if_container.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/front_insert_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/indirectly_comparable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/projected.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/insert_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/istream_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/istreambuf_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/mergeable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/move_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/move_sentinel.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/ostream_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/ostreambuf_iterator.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/permutable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/sortable.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/unreachable_sentinel.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_category_to_traversal.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_traits.h \
    /usr/local/cuda-13.0/include/cccl/cuda/type_traits \
    /usr/local/cuda-13.0/include/cccl/cuda/__type_traits/is_floating_point.h \
    /usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/any_assign.h \
    /usr/local/cuda-13.0/include/cccl/cub/warp/warp_exchange.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/warp/specializations/warp_exchange_shfl.cuh \
    /usr/local/cuda-13.0/include/cccl/cuda/ptx \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/barrier_cluster.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/barrier_cluster.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/bmsk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/bmsk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/clusterlaunchcontrol.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/clusterlaunchcontrol.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_multicast.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk_commit_group.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_commit_group.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk_tensor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_tensor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_tensor_gather_scatter.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_tensor_multicast.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk_wait_group.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_wait_group.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_mbarrier_arrive.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_mbarrier_arrive.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_mbarrier_arrive_noinc.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_reduce_async_bulk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk_f16.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk_bf16.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_reduce_async_bulk_tensor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk_tensor.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/exit.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/exit.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/fence.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_mbarrier_init.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_alias.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_async.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_async_generic_sync_restrict.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_tensormap_generic.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_sync_restrict.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/get_sreg.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/get_sreg.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/getctarank.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/getctarank.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/ld.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/ld.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_arrive.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_arrive.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_arrive_expect_tx.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_arrive_no_complete.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_expect_tx.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_expect_tx.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_init.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_init.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_wait.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_test_wait.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_test_wait_parity.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_try_wait.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_try_wait_parity.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/multimem_ld_reduce.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/multimem_ld_reduce.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/multimem_red.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/multimem_red.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/multimem_st.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/multimem_st.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/prmt.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/prmt.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/red_async.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/red_async.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/shfl_sync.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/st.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/st.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/st_async.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/st_async.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/st_bulk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/st_bulk.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_alloc.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_alloc.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_commit.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_commit.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_cp.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_cp.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_fence.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_fence.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_ld.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_ld.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_mma.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_mma.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_mma_ws.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_mma_ws.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_shift.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_shift.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_st.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_st.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_wait.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_wait.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tensormap_cp_fenceproxy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tensormap_cp_fenceproxy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tensormap_replace.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tensormap_replace.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/trap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/trap.h \
    /usr/local/cuda-13.0/include/cccl/cub/warp/specializations/warp_exchange_smem.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/iterator/cache_modified_input_iterator.cuh \
    /usr/include/c++/12/iostream \
    /usr/include/c++/12/ostream \
    /usr/include/c++/12/ios \
    /usr/include/c++/12/bits/basic_ios.h \
    /usr/include/c++/12/bits/locale_facets.h \
    /usr/include/c++/12/cwctype \
    /usr/include/wctype.h \
    /usr/include/x86_64-linux-gnu/bits/wctype-wchar.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/ctype_base.h \
    /usr/include/x86_64-linux-gnu/c++/12/bits/ctype_inline.h \
    /usr/include/c++/12/bits/locale_facets.tcc \
    /usr/include/c++/12/bits/basic_ios.tcc \
    /usr/include/c++/12/bits/ostream.tcc \
    /usr/include/c++/12/istream \
    /usr/include/c++/12/bits/istream.tcc \
    /usr/local/cuda-13.0/include/cccl/cub/thread/thread_load.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/thread/thread_store.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/grid/grid_queue.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/device/dispatch/tuning/tuning_histogram.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_device.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_policy_wrapper_t.cuh \
    /usr/local/cuda-13.0/include/cccl/cub/util_temporary_storage.cuh \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cuda/ensure_current_device.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cuda/api_wrapper.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__exception/cuda_error.h \
    /usr/include/c++/12/array \
    /usr/include/c++/12/compare \
    /usr/include/c++/12/atomic \
    /usr/local/cuda-13.0/include/cccl/cub/detail/launcher/cuda_runtime.cuh \
    /usr/local/cuda-13.0/include/cccl/thrust/system/cuda/detail/core/triple_chevron_launch.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/cuda_capabilities.h \
    /usr/local/cuda-13.0/include/cccl/cub/thread/thread_search.cuh \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm_ \
    /usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/algorithm \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/adjacent_find.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/all_of.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/any_of.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/binary_search.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/lower_bound.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/half_positive.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/clamp.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy_backward.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy_n.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/count.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/count_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/equal_range.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/upper_bound.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/fill.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_end.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_first_of.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_if_not.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/for_each.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/for_each_n.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/generate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/generate_n.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/includes.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_heap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_heap_until.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_partitioned.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_permutation.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_sorted.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_sorted_until.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/make_heap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/sift_down.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/make_projected.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/merge.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/minmax.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/minmax_element.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/mismatch.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/move.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/move_backward.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/next_permutation.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/reverse.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/none_of.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partial_sort.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/sort_heap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/pop_heap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/push_heap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partial_sort_copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partition.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partition_copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partition_point.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/prev_permutation.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove_copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove_copy_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace_copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace_copy_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace_if.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/reverse_copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/rotate.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/rotate_copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/search_n.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_difference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_intersection.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_symmetric_difference.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_union.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/shift_left.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/shift_right.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/transform.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/unique.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/unique_copy.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/destruct_n.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__memory/temporary_buffer.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/bit \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/byteswap.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/countr.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/ctz.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/endian.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__bit/rotate.h \
    /usr/local/cuda-13.0/include/cccl/cub/util_math.cuh \
    /usr/local/cuda-13.0/include/cccl/cuda/functional \
    /usr/local/cuda-13.0/include/cccl/cuda/__functional/address_stability.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__functional/get_device_address.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__functional/maximum.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__functional/minimum.h \
    /usr/local/cuda-13.0/include/cccl/cuda/__functional/proclaim_return_type.h \
    bench/bench.h \
    /usr/lib/gcc/x86_64-linux-gnu/12/include/stdbool.h \
    bench/histogram_ref.h \
    /usr/local/cuda-13.0/include/cccl/cuda/std/__thread/threading_support_pthread.h \
    /usr/include/semaphore.h \
    /usr/include/x86_64-linux-gnu/bits/semaphore.h \
    /usr/include/linux/futex.h \
    /usr/include/linux/types.h \
    /usr/include/x86_64-linux-gnu/asm/types.h \
    /usr/include/asm-generic/types.h \
    /usr/include/asm-generic/int-ll64.h \
    /usr/include/x86_64-linux-gnu/asm/bitsperlong.h \
    /usr/include/asm-generic/bitsperlong.h \
    /usr/include/linux/posix_types.h \
    /usr/include/linux/stddef.h \
    /usr/include/x86_64-linux-gnu/asm/posix_types.h \
    /usr/include/x86_64-linux-gnu/asm/posix_types_64.h \
    /usr/include/asm-generic/posix_types.h \
    /usr/include/x86_64-linux-gnu/sys/syscall.h \
    /usr/include/x86_64-linux-gnu/asm/unistd.h \
    /usr/include/x86_64-linux-gnu/asm/unistd_64.h \
    /usr/include/x86_64-linux-gnu/bits/syscall.h

/usr/include/stdc-predef.h:

/usr/local/cuda/include/cuda_runtime.h:

/usr/local/cuda/include/crt/host_config.h:

/usr/include/features.h:

/usr/include/features-time64.h:

/usr/include/x86_64-linux-gnu/bits/wordsize.h:

/usr/include/x86_64-linux-gnu/bits/timesize.h:

/usr/include/x86_64-linux-gnu/sys/cdefs.h:

/usr/include/x86_64-linux-gnu/bits/long-double.h:

/usr/include/x86_64-linux-gnu/gnu/stubs.h:

/usr/include/x86_64-linux-gnu/gnu/stubs-64.h:

/usr/local/cuda/include/builtin_types.h:

/usr/local/cuda/include/device_types.h:

/usr/local/cuda/include/crt/host_defines.h:

/usr/include/ctype.h:

/usr/include/x86_64-linux-gnu/bits/types.h:

/usr/include/x86_64-linux-gnu/bits/typesizes.h:

/usr/include/x86_64-linux-gnu/bits/time64.h:

/usr/include/x86_64-linux-gnu/bits/endian.h:

/usr/include/x86_64-linux-gnu/bits/endianness.h:

/usr/include/x86_64-linux-gnu/bits/types/locale_t.h:

/usr/include/x86_64-linux-gnu/bits/types/__locale_t.h:

/usr/local/cuda/include/driver_types.h:

/usr/local/cuda/include/vector_types.h:

/usr/lib/gcc/x86_64-linux-gnu/12/include/limits.h:

/usr/lib/gcc/x86_64-linux-gnu/12/include/syslimits.h:

/usr/include/limits.h:

/usr/include/x86_64-linux-gnu/bits/libc-header-start.h:

/usr/include/x86_64-linux-gnu/bits/posix1_lim.h:

/usr/include/x86_64-linux-gnu/bits/local_lim.h:

/usr/include/linux/limits.h:

/usr/include/x86_64-linux-gnu/bits/pthread_stack_min-dynamic.h:

/usr/include/x86_64-linux-gnu/bits/posix2_lim.h:

/usr/include/x86_64-linux-gnu/bits/xopen_lim.h:

/usr/include/x86_64-linux-gnu/bits/uio_lim.h:

/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h:

/usr/local/cuda/include/surface_types.h:

/usr/local/cuda/include/texture_types.h:

/usr/local/cuda/include/library_types.h:

/usr/local/cuda/include/channel_descriptor.h:

/usr/local/cuda/include/cuda_runtime_api.h:

/usr/local/cuda/include/cuda_device_runtime_api.h:

/usr/include/c++/12/stdlib.h:

/usr/include/c++/12/cstdlib:

/usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/os_defines.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/cpu_defines.h:

/usr/include/c++/12/pstl/pstl_config.h:

/usr/include/stdlib.h:

/usr/include/x86_64-linux-gnu/bits/waitflags.h:

/usr/include/x86_64-linux-gnu/bits/waitstatus.h:

/usr/include/x86_64-linux-gnu/bits/floatn.h:

/usr/include/x86_64-linux-gnu/bits/floatn-common.h:

/usr/include/x86_64-linux-gnu/sys/types.h:

/usr/include/x86_64-linux-gnu/bits/types/clock_t.h:

/usr/include/x86_64-linux-gnu/bits/types/clockid_t.h:

/usr/include/x86_64-linux-gnu/bits/types/time_t.h:

/usr/include/x86_64-linux-gnu/bits/types/timer_t.h:

/usr/include/x86_64-linux-gnu/bits/stdint-intn.h:

/usr/include/endian.h:

/usr/include/x86_64-linux-gnu/bits/byteswap.h:

/usr/include/x86_64-linux-gnu/bits/uintn-identity.h:

/usr/include/x86_64-linux-gnu/sys/select.h:

/usr/include/x86_64-linux-gnu/bits/select.h:

/usr/include/x86_64-linux-gnu/bits/types/sigset_t.h:

/usr/include/x86_64-linux-gnu/bits/types/__sigset_t.h:

/usr/include/x86_64-linux-gnu/bits/types/struct_timeval.h:

/usr/include/x86_64-linux-gnu/bits/types/struct_timespec.h:

/usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:

/usr/include/x86_64-linux-gnu/bits/thread-shared-types.h:

/usr/include/x86_64-linux-gnu/bits/pthreadtypes-arch.h:

/usr/include/x86_64-linux-gnu/bits/atomic_wide_counter.h:

/usr/include/x86_64-linux-gnu/bits/struct_mutex.h:

/usr/include/x86_64-linux-gnu/bits/struct_rwlock.h:

/usr/include/alloca.h:

/usr/include/x86_64-linux-gnu/bits/stdlib-bsearch.h:

/usr/include/x86_64-linux-gnu/bits/stdlib-float.h:

/usr/include/c++/12/bits/std_abs.h:

/usr/local/cuda/include/driver_functions.h:

/usr/local/cuda/include/vector_functions.h:

/usr/local/cuda/include/vector_functions.hpp:

/usr/local/cuda/include/crt/common_functions.h:

/usr/include/string.h:

/usr/include/strings.h:

/usr/include/time.h:

/usr/include/x86_64-linux-gnu/bits/time.h:

/usr/include/x86_64-linux-gnu/bits/timex.h:

/usr/include/x86_64-linux-gnu/bits/types/struct_tm.h:

/usr/include/x86_64-linux-gnu/bits/types/struct_itimerspec.h:

/usr/include/c++/12/new:

/usr/include/c++/12/bits/exception.h:

/usr/include/stdio.h:

/usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h:

/usr/include/x86_64-linux-gnu/bits/types/__fpos_t.h:

/usr/include/x86_64-linux-gnu/bits/types/__mbstate_t.h:

/usr/include/x86_64-linux-gnu/bits/types/__fpos64_t.h:

/usr/include/x86_64-linux-gnu/bits/types/__FILE.h:

/usr/include/x86_64-linux-gnu/bits/types/FILE.h:

/usr/include/x86_64-linux-gnu/bits/types/struct_FILE.h:

/usr/include/x86_64-linux-gnu/bits/types/cookie_io_functions_t.h:

/usr/include/x86_64-linux-gnu/bits/stdio_lim.h:

/usr/include/x86_64-linux-gnu/bits/stdio.h:

/usr/include/assert.h:

/usr/local/cuda/include/crt/math_functions.h:

/usr/include/c++/12/math.h:

/usr/include/c++/12/cmath:

/usr/include/c++/12/bits/cpp_type_traits.h:

/usr/include/c++/12/ext/type_traits.h:

/usr/include/math.h:

/usr/include/x86_64-linux-gnu/bits/math-vector.h:

/usr/include/x86_64-linux-gnu/bits/libm-simd-decl-stubs.h:

/usr/include/x86_64-linux-gnu/bits/flt-eval-method.h:

/usr/include/x86_64-linux-gnu/bits/fp-logb.h:

/usr/include/x86_64-linux-gnu/bits/fp-fast.h:

/usr/include/x86_64-linux-gnu/bits/mathcalls-helper-functions.h:

/usr/include/x86_64-linux-gnu/bits/mathcalls.h:

/usr/include/x86_64-linux-gnu/bits/mathcalls-narrow.h:

/usr/include/x86_64-linux-gnu/bits/iscanonical.h:

/usr/include/c++/12/bits/specfun.h:

/usr/include/c++/12/bits/stl_algobase.h:

/usr/include/c++/12/bits/functexcept.h:

/usr/include/c++/12/bits/exception_defines.h:

/usr/include/c++/12/ext/numeric_traits.h:

/usr/include/c++/12/bits/stl_pair.h:

/usr/include/c++/12/type_traits:

/usr/include/c++/12/bits/move.h:

/usr/include/c++/12/bits/utility.h:

/usr/include/c++/12/bits/stl_iterator_base_types.h:

/usr/include/c++/12/bits/stl_iterator_base_funcs.h:

/usr/include/c++/12/bits/concept_check.h:

/usr/include/c++/12/debug/assertions.h:

/usr/include/c++/12/bits/stl_iterator.h:

/usr/include/c++/12/bits/ptr_traits.h:

/usr/include/c++/12/debug/debug.h:

/usr/include/c++/12/bits/predefined_ops.h:

/usr/include/c++/12/limits:

/usr/include/c++/12/tr1/gamma.tcc:

/usr/include/c++/12/tr1/special_function_util.h:

/usr/include/c++/12/tr1/bessel_function.tcc:

/usr/include/c++/12/tr1/beta_function.tcc:

/usr/include/c++/12/tr1/ell_integral.tcc:

/usr/include/c++/12/tr1/exp_integral.tcc:

/usr/include/c++/12/tr1/hypergeometric.tcc:

/usr/include/c++/12/tr1/legendre_function.tcc:

/usr/include/c++/12/tr1/modified_bessel_func.tcc:

/usr/include/c++/12/tr1/poly_hermite.tcc:

/usr/include/c++/12/tr1/poly_laguerre.tcc:

/usr/include/c++/12/tr1/riemann_zeta.tcc:

/usr/local/cuda/include/crt/math_functions.hpp:

/usr/local/cuda/include/crt/device_functions.h:

/usr/local/cuda/include/crt/device_functions.hpp:

/usr/local/cuda/include/device_atomic_functions.h:

/usr/local/cuda/include/device_atomic_functions.hpp:

/usr/local/cuda/include/crt/device_double_functions.h:

/usr/local/cuda/include/crt/device_double_functions.hpp:

/usr/local/cuda/include/sm_20_atomic_functions.h:

/usr/local/cuda/include/sm_20_atomic_functions.hpp:

/usr/local/cuda/include/sm_32_atomic_functions.h:

/usr/local/cuda/include/sm_32_atomic_functions.hpp:

/usr/local/cuda/include/sm_35_atomic_functions.h:

/usr/local/cuda/include/sm_60_atomic_functions.h:

/usr/local/cuda/include/sm_60_atomic_functions.hpp:

/usr/local/cuda/include/sm_20_intrinsics.h:

/usr/local/cuda/include/sm_20_intrinsics.hpp:

/usr/local/cuda/include/sm_30_intrinsics.h:

/usr/local/cuda/include/sm_30_intrinsics.hpp:

/usr/local/cuda/include/sm_32_intrinsics.h:

/usr/local/cuda/include/sm_32_intrinsics.hpp:

/usr/local/cuda/include/sm_35_intrinsics.h:

/usr/local/cuda/include/sm_61_intrinsics.h:

/usr/local/cuda/include/sm_61_intrinsics.hpp:

/usr/local/cuda/include/crt/sm_70_rt.h:

/usr/local/cuda/include/crt/sm_70_rt.hpp:

/usr/local/cuda/include/crt/sm_80_rt.h:

/usr/local/cuda/include/crt/sm_80_rt.hpp:

/usr/local/cuda/include/crt/sm_90_rt.h:

/usr/local/cuda/include/crt/sm_90_rt.hpp:

/usr/local/cuda/include/crt/sm_100_rt.h:

/usr/local/cuda/include/crt/sm_100_rt.hpp:

/usr/local/cuda/include/texture_indirect_functions.h:

/usr/local/cuda/include/surface_indirect_functions.h:

/usr/local/cuda/include/crt/cudacc_ext.h:

/usr/local/cuda/include/device_launch_parameters.h:

/usr/include/c++/12/utility:

/usr/include/c++/12/bits/stl_relops.h:

/usr/include/c++/12/initializer_list:

/usr/local/cuda/include/cooperative_groups.h:

/usr/local/cuda/include/cooperative_groups/details/info.h:

/usr/local/cuda/include/nv/target:

/usr/local/cuda/include/nv/detail/__target_macros:

/usr/local/cuda/include/nv/detail/__preprocessor:

/usr/local/cuda-13.0/include/cccl/cuda/std/type_traits:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/__config:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/version.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/__config:

/usr/local/cuda-13.0/include/cccl/cuda/__cccl_config:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/architecture.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/assert.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/compiler.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/preprocessor.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/system_header.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/is_non_narrowing_convertible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/attributes.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/dialect.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/builtin.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/extended_data_types.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/cuda_toolkit.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/diagnostic.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/os.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/execution_space.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/deprecated.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/exceptions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/ptx_isa.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/rtti.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/sequence_access.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/unreachable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/visibility.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__internal/cpp_dialect.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__internal/features.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__internal/namespaces.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/iter_swap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/declval.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/void_t.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/swap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/enable_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_move_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_lvalue_reference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_referenceable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/integral_constant.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_same.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_rvalue_reference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_void.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_cvref.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_cv.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_const.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_volatile.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_reference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/cstddef:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cstddef/byte.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/concept_macros.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_integral.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cstddef/types.h:

/usr/include/c++/12/cstddef:

/usr/local/cuda-13.0/include/cccl/cuda/std/version:

/usr/include/c++/12/version:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_move_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/conjunction.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/conditional.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/disjunction.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_base_of.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_class.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_union.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_destructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_function.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_const.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_reference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_all_extents.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/negation.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_move_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_scalar.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_arithmetic.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_floating_point.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_enum.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_array.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_member_pointer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_member_function_pointer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_pointer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_null_pointer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_move_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_swappable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/nat.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/type_identity.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/move.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_copy_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_const.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/identity.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/reference_wrapper.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/invoke.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/copy_cvref.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/decay.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_pointer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_extent.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_core_convertible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_member_object_pointer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_reference_wrapper.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/forward.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/weak_result_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binary_function.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/unary_function.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/addressof.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/hash.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/pair.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_cv.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/add_volatile.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/aligned_storage.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/type_list.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/type_set.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/fold.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/integer_sequence.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/aligned_union.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/alignment_of.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/always_false.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/can_extract_key.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_const_ref.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/common_reference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/common_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_extended_floating_point.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/nvfp_types.h:

/usr/local/cuda/include/cuda_fp16.h:

/usr/local/cuda/include/cuda_fp16.hpp:

/usr/local/cuda/include/cuda_bf16.h:

/usr/local/cuda/include/cuda_bf16.hpp:

/usr/local/cuda/include/cuda_fp8.h:

/usr/local/cuda/include/cuda_fp8.hpp:

/usr/local/cuda/include/cuda_fp6.h:

/usr/local/cuda/include/cuda_fp6.hpp:

/usr/local/cuda/include/cuda_fp4.h:

/usr/local/cuda/include/cuda_fp4.hpp:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/copy_cv.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_convertible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/dependent_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/extent.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/has_unique_object_representation.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/has_virtual_destructor.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_abstract.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_aggregate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_allocator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_bounded_array.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_callable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_valid_expansion.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_char_like_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_standard_layout.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivial.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_copyable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_default_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_compound.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_fundamental.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_constant_evaluated.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_copy_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_default_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_empty.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_final.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_implicitly_default_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_integer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_signed_integer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_unsigned_integer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_literal_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_convertible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/lazy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_copy_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_copy_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_default_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_nothrow_destructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_object.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_pod.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_copy_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_copy_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_destructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_polymorphic.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_primary_template.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/iterator_traits.h:

/usr/include/c++/12/iterator:

/usr/include/c++/12/iosfwd:

/usr/include/c++/12/bits/stringfwd.h:

/usr/include/c++/12/bits/memoryfwd.h:

/usr/include/c++/12/bits/postypes.h:

/usr/include/c++/12/cwchar:

/usr/include/wchar.h:

/usr/include/x86_64-linux-gnu/bits/wchar.h:

/usr/include/x86_64-linux-gnu/bits/types/wint_t.h:

/usr/include/x86_64-linux-gnu/bits/types/mbstate_t.h:

/usr/include/c++/12/bits/stream_iterator.h:

/usr/include/c++/12/bits/streambuf_iterator.h:

/usr/include/c++/12/streambuf:

/usr/include/c++/12/bits/localefwd.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/c++locale.h:

/usr/include/c++/12/clocale:

/usr/include/locale.h:

/usr/include/x86_64-linux-gnu/bits/locale.h:

/usr/include/c++/12/cctype:

/usr/include/c++/12/bits/ios_base.h:

/usr/include/c++/12/ext/atomicity.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/gthr.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/gthr-default.h:

/usr/include/pthread.h:

/usr/include/sched.h:

/usr/include/x86_64-linux-gnu/bits/sched.h:

/usr/include/x86_64-linux-gnu/bits/types/struct_sched_param.h:

/usr/include/x86_64-linux-gnu/bits/cpu-set.h:

/usr/include/x86_64-linux-gnu/bits/setjmp.h:

/usr/include/x86_64-linux-gnu/bits/types/struct___jmp_buf_tag.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/atomic_word.h:

/usr/include/x86_64-linux-gnu/sys/single_threaded.h:

/usr/include/c++/12/bits/locale_classes.h:

/usr/include/c++/12/string:

/usr/include/c++/12/bits/char_traits.h:

/usr/include/c++/12/cstdint:

/usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h:

/usr/include/stdint.h:

/usr/include/x86_64-linux-gnu/bits/stdint-uintn.h:

/usr/include/c++/12/bits/allocator.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/c++allocator.h:

/usr/include/c++/12/bits/new_allocator.h:

/usr/include/c++/12/bits/ostream_insert.h:

/usr/include/c++/12/bits/cxxabi_forced.h:

/usr/include/c++/12/bits/stl_function.h:

/usr/include/c++/12/backward/binders.h:

/usr/include/c++/12/bits/refwrap.h:

/usr/include/c++/12/bits/invoke.h:

/usr/include/c++/12/bits/range_access.h:

/usr/include/c++/12/bits/basic_string.h:

/usr/include/c++/12/ext/alloc_traits.h:

/usr/include/c++/12/bits/alloc_traits.h:

/usr/include/c++/12/bits/stl_construct.h:

/usr/include/c++/12/string_view:

/usr/include/c++/12/bits/functional_hash.h:

/usr/include/c++/12/bits/hash_bytes.h:

/usr/include/c++/12/bits/string_view.tcc:

/usr/include/c++/12/ext/string_conversions.h:

/usr/include/c++/12/cstdio:

/usr/include/c++/12/cerrno:

/usr/include/errno.h:

/usr/include/x86_64-linux-gnu/bits/errno.h:

/usr/include/linux/errno.h:

/usr/include/x86_64-linux-gnu/asm/errno.h:

/usr/include/asm-generic/errno.h:

/usr/include/asm-generic/errno-base.h:

/usr/include/x86_64-linux-gnu/bits/types/error_t.h:

/usr/include/c++/12/bits/charconv.h:

/usr/include/c++/12/bits/basic_string.tcc:

/usr/include/c++/12/bits/locale_classes.tcc:

/usr/include/c++/12/system_error:

/usr/include/x86_64-linux-gnu/c++/12/bits/error_constants.h:

/usr/include/c++/12/stdexcept:

/usr/include/c++/12/exception:

/usr/include/c++/12/bits/exception_ptr.h:

/usr/include/c++/12/bits/cxxabi_init_exception.h:

/usr/include/c++/12/typeinfo:

/usr/include/c++/12/bits/nested_exception.h:

/usr/include/c++/12/bits/streambuf.tcc:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_scoped_enum.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/underlying_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_signed.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_move_assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_trivially_move_constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_unbounded_array.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_unsigned.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_volatile.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_const_lvalue_ref.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_nbit_int.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/cstdint:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_signed.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/make_unsigned.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/maybe_const.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/promote.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/rank.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/reference_constructs_from_temporary.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/reference_converts_from_temporary.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/remove_pointer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/result_of.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/convert_to_integral.h:

/usr/local/cuda/include/cooperative_groups/details/driver_abi.h:

/usr/local/cuda/include/cooperative_groups/details/helpers.h:

/usr/local/cuda/include/cooperative_groups/details/sync.h:

/usr/local/cuda/include/cooperative_groups/details/memory.h:

/usr/local/cuda-13.0/include/cccl/cuda/atomic:

/usr/local/cuda-13.0/include/cccl/cuda/__atomic/atomic.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/atomic:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/platform.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/order.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/scopes.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/wait/polling.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/base.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/cassert:

/usr/include/c++/12/cassert:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/common.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated_helper.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/cuda_local.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/common.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/cstring:

/usr/include/c++/12/cstring:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/functions/host.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/locked.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/reference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/types/small.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__thread/threading_support.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/chrono:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/chrono:

/usr/include/c++/12/chrono:

/usr/include/c++/12/bits/chrono.h:

/usr/include/c++/12/ratio:

/usr/include/c++/12/ctime:

/usr/include/c++/12/bits/parse_numbers.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/ctime:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/ctime:

/usr/local/cuda-13.0/include/cccl/cuda/std/limits:

/usr/local/cuda-13.0/include/cccl/cuda/std/__limits/numeric_limits.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/bit_cast.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/climits:

/usr/include/c++/12/climits:

/usr/local/cuda-13.0/include/cccl/cuda/std/__limits/numeric_limits_ext.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/storage.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/format.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/cfloat:

/usr/include/c++/12/cfloat:

/usr/lib/gcc/x86_64-linux-gnu/12/include/float.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/ratio:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/ratio:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cuda/chrono.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__thread/threading_support_cuda.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/wait/notify_wait.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/api/owned.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/api/common.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__atomic/api/reference.h:

/usr/local/cuda/include/cooperative_groups/details/partitioning.h:

/usr/local/cuda/include/cooperative_groups/details/invoke.h:

/usr/local/cuda-13.0/include/cccl/cub/device/device_histogram.cuh:

/usr/local/cuda-13.0/include/cccl/cub/config.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_arch.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_cpp_dialect.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_macro.cuh:

/usr/local/cuda-13.0/include/cccl/cub/detail/detect_cuda_runtime.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_namespace.cuh:

/usr/local/cuda-13.0/include/cccl/cub/version.cuh:

/usr/local/cuda-13.0/include/cccl/cuda/version:

/usr/local/cuda-13.0/include/cccl/cuda/std/utility:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/hash.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/pair.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/unwrap_ref.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/get.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/copyable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/assignable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/common_reference_with.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/convertible_to.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/same_as.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/constructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/destructible.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/movable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/swappable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/class_or_enum.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/exchange.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/array.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/complex.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/subrange.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/concepts.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/arithmetic.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/derived_from.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/equality_comparable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/boolean_testable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/invocable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/predicate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/regular.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/semiregular.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/relation.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/totally_ordered.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/incrementable_traits.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iter_move.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iterator_traits.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/readable_traits.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/priority_tag.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/pointer_traits.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/tuple.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_element.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_indices.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_types.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/sfinae_helpers.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/make_tuple_types.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_size.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_like_ext.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/structured_bindings.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/piecewise_construct.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/construct_at.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/access.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/voidify.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/as_const.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/auto_cast.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/cmp.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/forward_like.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/in_place.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/monostate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/rel_ops.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/to_underlying.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__utility/unreachable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/concepts:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/common_with.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__concepts/different_from.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/initializer_list:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/ignore.h:

/usr/local/cuda-13.0/include/cccl/cuda/cmath:

/usr/local/cuda-13.0/include/cccl/cuda/__cmath/ceil_div.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/min.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/comp.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/comp_ref_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/min_element.h:

/usr/local/cuda-13.0/include/cccl/cuda/__cmath/ilog.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/integral.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/bfind.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/ptx_dot_variants.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/ptx_helper_functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/bfind.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/shl.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/shl.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/shr.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/shr.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/max.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/max_element.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/countl.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/clz.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/rounding_functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/array:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/array:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/equal.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/distance.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/access.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/enable_borrowed_range.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/concepts.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/data.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/reverse_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/unwrap_iter.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/advance.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iter_swap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/next.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/prev.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/enable_view.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__ranges/size.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/fill_n.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/lexicographical_compare.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/swap_ranges.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/iterator_operations.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/ranges_iterator_concept.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/stdexcept:

/usr/local/cuda-13.0/include/cccl/cuda/std/__exception/terminate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/cstdlib:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/abs.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/aligned_alloc.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/malloc.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cstdlib/div.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/data.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/empty.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/reverse_access.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/size.h:

/usr/local/cuda-13.0/include/cccl/cuda/__cmath/round_down.h:

/usr/local/cuda-13.0/include/cccl/cuda/__cmath/round_up.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/cmath:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/cmath:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/abs.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/signbit.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/fp.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/cast.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/common_type.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/conversion_rank_order.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__floating_point/mask.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/copysign.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isinf.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isnan.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/popcount.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/popc.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/exponential_functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/fpclassify.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/gamma.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/hyperbolic_functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/hypot.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/min_max.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/roots.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/inverse_hyperbolic_functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/inverse_trigonometric_functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isfinite.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/isnormal.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/lerp.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/logarithms.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/traits.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__type_traits/is_extended_arithmetic.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/trigonometric_functions.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/nvfp16.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cmath/nvbf16.h:

/usr/local/cuda-13.0/include/cccl/cub/detail/nvtx.cuh:

/usr/local/cuda/include/nvtx3/nvtx3.hpp:

/usr/local/cuda/include/nvtx3/nvToolsExt.h:

/usr/local/cuda/include/nvtx3/nvtxDetail/nvtxLinkOnce.h:

/usr/local/cuda/include/nvtx3/nvtxDetail/nvtxTypes.h:

/usr/local/cuda/include/nvtx3/nvtxDetail/nvtxImpl.h:

/usr/include/unistd.h:

/usr/include/x86_64-linux-gnu/bits/posix_opt.h:

/usr/include/x86_64-linux-gnu/bits/environments.h:

/usr/include/x86_64-linux-gnu/bits/confname.h:

/usr/include/x86_64-linux-gnu/bits/getopt_posix.h:

/usr/include/x86_64-linux-gnu/bits/getopt_core.h:

/usr/include/x86_64-linux-gnu/bits/unistd_ext.h:

/usr/include/linux/close_range.h:

/usr/include/dlfcn.h:

/usr/include/x86_64-linux-gnu/bits/dlfcn.h:

/usr/include/x86_64-linux-gnu/bits/dl_find_object.h:

/usr/include/fcntl.h:

/usr/include/x86_64-linux-gnu/bits/fcntl.h:

/usr/include/x86_64-linux-gnu/bits/fcntl-linux.h:

/usr/include/x86_64-linux-gnu/bits/types/struct_iovec.h:

/usr/include/linux/falloc.h:

/usr/include/x86_64-linux-gnu/bits/stat.h:

/usr/include/x86_64-linux-gnu/bits/struct_stat.h:

/usr/local/cuda/include/nvtx3/nvtxDetail/nvtxInitDecls.h:

/usr/local/cuda/include/nvtx3/nvtxDetail/nvtxImplCore.h:

/usr/local/cuda/include/nvtx3/nvtxDetail/nvtxInitDefs.h:

/usr/local/cuda/include/nvtx3/nvtxDetail/nvtxInit.h:

/usr/include/c++/12/memory:

/usr/include/c++/12/bits/stl_uninitialized.h:

/usr/include/c++/12/bits/stl_tempbuf.h:

/usr/include/c++/12/bits/stl_raw_storage_iter.h:

/usr/include/c++/12/bits/align.h:

/usr/include/c++/12/bit:

/usr/include/c++/12/bits/uses_allocator.h:

/usr/include/c++/12/bits/unique_ptr.h:

/usr/include/c++/12/tuple:

/usr/include/c++/12/bits/shared_ptr.h:

/usr/include/c++/12/bits/shared_ptr_base.h:

/usr/include/c++/12/bits/allocated_ptr.h:

/usr/include/c++/12/ext/aligned_buffer.h:

/usr/include/c++/12/ext/concurrence.h:

/usr/include/c++/12/bits/shared_ptr_atomic.h:

/usr/include/c++/12/bits/atomic_base.h:

/usr/include/c++/12/bits/atomic_lockfree_defines.h:

/usr/include/c++/12/backward/auto_ptr.h:

/usr/include/c++/12/pstl/glue_memory_defs.h:

/usr/include/c++/12/pstl/execution_defs.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/optional:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/optional:

/usr/local/cuda-13.0/include/cccl/cuda/std/__new_:

/usr/local/cuda-13.0/include/cccl/cuda/std/__new/allocate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__new/bad_alloc.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__new/launder.h:

/usr/local/cuda-13.0/include/cccl/cub/device/dispatch/dispatch_histogram.cuh:

/usr/local/cuda-13.0/include/cccl/cub/agent/agent_histogram.cuh:

/usr/local/cuda-13.0/include/cccl/cub/block/block_load.cuh:

/usr/local/cuda-13.0/include/cccl/cub/block/block_exchange.cuh:

/usr/local/cuda-13.0/include/cccl/cub/detail/uninitialized_copy.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_ptx.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_debug.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_type.cuh:

/usr/local/cuda-13.0/include/cccl/cub/detail/type_traits.cuh:

/usr/local/cuda-13.0/include/cccl/cuda/std/functional:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binary_negate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/bind.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/bind_back.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/perfect_forward.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/tuple:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/tuple:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/allocator_arg_t.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/uses_allocator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/tuple_like.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__tuple_dir/vector_types.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/bind_front.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binder1st.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/binder2nd.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/compose.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/default_searcher.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/search.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/operations.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/function.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/allocator_destructor.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/allocator_traits.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/builtin_new_allocator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/unique_ptr.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/compressed_pair.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/is_transparent.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/mem_fn.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/mem_fun_ref.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/not_fn.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/pointer_to_binary_function.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/pointer_to_unary_function.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/ranges_operations.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__functional/unary_negate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/iosfwd:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/string.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/memory_resource.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/mdspan:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/mdspan.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/aligned_accessor.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/has_single_bit.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/default_accessor.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/assume_aligned.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/concepts.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/span:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/span:

/usr/local/cuda-13.0/include/cccl/cuda/std/__fwd/span.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/wrap_iter.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/extents.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/layout_left.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/empty_base.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/layout_right.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/layout_stride.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/mdspan.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/submdspan_extents.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/submdspan_helper.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__mdspan/submdspan_mapping.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/discard_iterator.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config/config.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config/compiler.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config/cpp_dialect.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config/simple_defines.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config/host_system.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config/device_system.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/config/namespace.h:

/usr/local/cuda-13.0/include/cccl/thrust/version.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/counting_iterator.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/type_traits.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_adaptor.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/use_default.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_adaptor_base.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_facade.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_facade_category.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/any_system_tag.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/execution_policy.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/device_system_tag.h:

/usr/local/cuda-13.0/include/cccl/thrust/system/cuda/detail/execution_policy.h:

/usr/local/cuda-13.0/include/cccl/thrust/system/cuda/config.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/allocator_aware_execution_policy.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/alignment.h:

/usr/local/cuda-13.0/include/cccl/thrust/detail/execute_with_allocator_fwd.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/host_system_tag.h:

/usr/local/cuda-13.0/include/cccl/thrust/system/cpp/detail/execution_policy.h:

/usr/local/cuda-13.0/include/cccl/thrust/system/detail/sequential/execution_policy.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_category_to_system.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_categories.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_category_with_system_and_traversal.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_traversal_tags.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/iterator:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/back_insert_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/bounded_iter.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/default_sentinel.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/erase_if_container.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/front_insert_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/indirectly_comparable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/projected.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/insert_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/istream_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/istreambuf_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/mergeable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/move_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/move_sentinel.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/ostream_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/ostreambuf_iterator.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/permutable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/sortable.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__iterator/unreachable_sentinel.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/iterator_category_to_traversal.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/iterator_traits.h:

/usr/local/cuda-13.0/include/cccl/cuda/type_traits:

/usr/local/cuda-13.0/include/cccl/cuda/__type_traits/is_floating_point.h:

/usr/local/cuda-13.0/include/cccl/thrust/iterator/detail/any_assign.h:

/usr/local/cuda-13.0/include/cccl/cub/warp/warp_exchange.cuh:

/usr/local/cuda-13.0/include/cccl/cub/warp/specializations/warp_exchange_shfl.cuh:

/usr/local/cuda-13.0/include/cccl/cuda/ptx:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/barrier_cluster.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/barrier_cluster.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/bmsk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/bmsk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/clusterlaunchcontrol.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/clusterlaunchcontrol.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_multicast.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk_commit_group.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_commit_group.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk_tensor.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_tensor.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_tensor_gather_scatter.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_tensor_multicast.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_bulk_wait_group.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_bulk_wait_group.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_async_mbarrier_arrive.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_mbarrier_arrive.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_async_mbarrier_arrive_noinc.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_reduce_async_bulk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk_f16.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk_bf16.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/cp_reduce_async_bulk_tensor.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/cp_reduce_async_bulk_tensor.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/exit.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/exit.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/fence.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_mbarrier_init.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_alias.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_async.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_async_generic_sync_restrict.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_proxy_tensormap_generic.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/fence_sync_restrict.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/get_sreg.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/get_sreg.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/getctarank.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/getctarank.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/ld.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/ld.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_arrive.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_arrive.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_arrive_expect_tx.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_arrive_no_complete.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_expect_tx.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_expect_tx.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_init.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_init.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/mbarrier_wait.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_test_wait.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_test_wait_parity.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_try_wait.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_try_wait_parity.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/multimem_ld_reduce.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/multimem_ld_reduce.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/multimem_red.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/multimem_red.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/multimem_st.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/multimem_st.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/prmt.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/prmt.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/red_async.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/red_async.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/shfl_sync.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/st.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/st.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/st_async.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/st_async.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/st_bulk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/st_bulk.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_alloc.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_alloc.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_commit.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_commit.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_cp.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_cp.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_fence.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_fence.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_ld.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_ld.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_mma.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_mma.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_mma_ws.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_mma_ws.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_shift.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_shift.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_st.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_st.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tcgen05_wait.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tcgen05_wait.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tensormap_cp_fenceproxy.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tensormap_cp_fenceproxy.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/tensormap_replace.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/tensormap_replace.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/trap.h:

/usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/trap.h:

/usr/local/cuda-13.0/include/cccl/cub/warp/specializations/warp_exchange_smem.cuh:

/usr/local/cuda-13.0/include/cccl/cub/iterator/cache_modified_input_iterator.cuh:

/usr/include/c++/12/iostream:

/usr/include/c++/12/ostream:

/usr/include/c++/12/ios:

/usr/include/c++/12/bits/basic_ios.h:

/usr/include/c++/12/bits/locale_facets.h:

/usr/include/c++/12/cwctype:

/usr/include/wctype.h:

/usr/include/x86_64-linux-gnu/bits/wctype-wchar.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/ctype_base.h:

/usr/include/x86_64-linux-gnu/c++/12/bits/ctype_inline.h:

/usr/include/c++/12/bits/locale_facets.tcc:

/usr/include/c++/12/bits/basic_ios.tcc:

/usr/include/c++/12/bits/ostream.tcc:

/usr/include/c++/12/istream:

/usr/include/c++/12/bits/istream.tcc:

/usr/local/cuda-13.0/include/cccl/cub/thread/thread_load.cuh:

/usr/local/cuda-13.0/include/cccl/cub/thread/thread_store.cuh:

/usr/local/cuda-13.0/include/cccl/cub/grid/grid_queue.cuh:

/usr/local/cuda-13.0/include/cccl/cub/device/dispatch/tuning/tuning_histogram.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_device.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_policy_wrapper_t.cuh:

/usr/local/cuda-13.0/include/cccl/cub/util_temporary_storage.cuh:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cuda/ensure_current_device.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cuda/api_wrapper.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__exception/cuda_error.h:

/usr/include/c++/12/array:

/usr/include/c++/12/compare:

/usr/include/c++/12/atomic:

/usr/local/cuda-13.0/include/cccl/cub/detail/launcher/cuda_runtime.cuh:

/usr/local/cuda-13.0/include/cccl/thrust/system/cuda/detail/core/triple_chevron_launch.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__cccl/cuda_capabilities.h:

/usr/local/cuda-13.0/include/cccl/cub/thread/thread_search.cuh:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm_:

/usr/local/cuda-13.0/include/cccl/cuda/std/detail/libcxx/include/algorithm:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/adjacent_find.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/all_of.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/any_of.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/binary_search.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/lower_bound.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/half_positive.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/clamp.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy_backward.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/copy_n.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/count.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/count_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/equal_range.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/upper_bound.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/fill.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_end.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_first_of.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/find_if_not.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/for_each.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/for_each_n.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/generate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/generate_n.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/includes.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_heap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_heap_until.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_partitioned.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_permutation.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_sorted.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/is_sorted_until.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/make_heap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/sift_down.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/make_projected.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/merge.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/minmax.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/minmax_element.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/mismatch.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/move.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/move_backward.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/next_permutation.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/reverse.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/none_of.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partial_sort.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/sort_heap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/pop_heap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/push_heap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partial_sort_copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partition.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partition_copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/partition_point.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/prev_permutation.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove_copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove_copy_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/remove_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace_copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace_copy_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/replace_if.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/reverse_copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/rotate.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/rotate_copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/search_n.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_difference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_intersection.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_symmetric_difference.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/set_union.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/shift_left.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/shift_right.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/transform.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/unique.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__algorithm/unique_copy.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/destruct_n.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__memory/temporary_buffer.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/bit:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/byteswap.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/countr.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/ctz.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/endian.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__bit/rotate.h:

/usr/local/cuda-13.0/include/cccl/cub/util_math.cuh:

/usr/local/cuda-13.0/include/cccl/cuda/functional:

/usr/local/cuda-13.0/include/cccl/cuda/__functional/address_stability.h:

/usr/local/cuda-13.0/include/cccl/cuda/__functional/get_device_address.h:

/usr/local/cuda-13.0/include/cccl/cuda/__functional/maximum.h:

/usr/local/cuda-13.0/include/cccl/cuda/__functional/minimum.h:

/usr/local/cuda-13.0/include/cccl/cuda/__functional/proclaim_return_type.h:

bench/bench.h:

/usr/lib/gcc/x86_64-linux-gnu/12/include/stdbool.h:

bench/histogram_ref.h:

/usr/local/cuda-13.0/include/cccl/cuda/std/__thread/threading_support_pthread.h:

/usr/include/semaphore.h:

/usr/include/x86_64-linux-gnu/bits/semaphore.h:

/usr/include/linux/futex.h:

/usr/include/linux/types.h:

/usr/include/x86_64-linux-gnu/asm/types.h:

/usr/include/asm-generic/types.h:

/usr/include/asm-generic/int-ll64.h:

/usr/include/x86_64-linux-gnu/asm/bitsperlong.h:

/usr/include/asm-generic/bitsperlong.h:

/usr/include/linux/posix_types.h:

/usr/include/linux/stddef.h:

/usr/include/x86_64-linux-gnu/asm/posix_types.h:

/usr/include/x86_64-linux-gnu/asm/posix_types_64.h:

/usr/include/asm-generic/posix_types.h:

/usr/include/x86_64-linux-gnu/sys/syscall.h:

/usr/include/x86_64-linux-gnu/asm/unistd.h:

/usr/include/x86_64-linux-gnu/asm/unistd_64.h:

/usr/include/x86_64-linux-gnu/bits/syscall.h:
