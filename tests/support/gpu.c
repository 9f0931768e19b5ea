/* SPDX-License-Identifier: MIT */
/*
 * gpu.c: see gpu.h.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <cublas_v2.h>

#include "gpu.h"
#include "gputile.h"

/* The pinned pool keeps freed blocks until gputile_pool_release(), by
 * design; a test process gives them back before it exits, so that leak
 * checkers (compute-sanitizer --leak-check) see no pinned memory left.
 * Registered after CUDA is initialised, so it runs before the CUDA
 * runtime's own exit handlers. */
static void release_pool(void)
{
    (void)gputile_pool_release();
}

const char *gputest_cuda_text(cudaError_t err)
{
    /* lib/status.c maps both to GPUTILE_ERROR_NO_DEVICE */
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
        return gputile_strerror(GPUTILE_ERROR_NO_DEVICE);
    return cudaGetErrorString(err);
}

bool gputest_has_wgmma(void)
{
    int dev, major = 0, minor = 0;
    return cudaGetDevice(&dev) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
           cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess &&
           major == 9 && minor == 0;
}

void gputest_require_device(void)
{
    static bool registered;
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ||
        (err == cudaSuccess && n == 0))
        cr_skip_test("%s", gputile_strerror(GPUTILE_ERROR_NO_DEVICE));
    if (err != cudaSuccess)
        cr_skip_test("no usable CUDA device: cudaGetDeviceCount: %s", cudaGetErrorString(err));
    /* Every Criterion test is a process with its own context (~0.5 GiB on
     * an H200). When other processes fill the device, creating ours fails
     * with out-of-memory: wait for them, up to a minute, rather than fail
     * a test because the GPU is shared. */
    for (int tries = 0; (err = cudaFree(NULL)) == cudaErrorMemoryAllocation && tries < 240; ++tries)
        nanosleep(&(struct timespec){0, 250 * 1000 * 1000}, NULL);
    if (err != cudaSuccess)
        cr_assert_fail("creating a CUDA context: %s", cudaGetErrorString(err));
    if (!registered && atexit(release_pool) == 0)
        registered = true;
}

/* ---- NVML, opened at run time ------------------------------------------------
 * The few declarations needed, from nvml.h (not part of the CUDA toolkit
 * install here): the _v3 and _v2 calls fill nvmlProcessInfo_t (pid, used
 * memory, GPU and compute instance ids: 24 bytes), the unversioned call
 * the older 16-byte struct. */
typedef struct nvml_device_st *nvml_device;
typedef struct nvml_process_info {
    unsigned int pid;
    unsigned long long used_gpu_memory;
    unsigned int gpu_instance_id, compute_instance_id;
} nvml_process_info;
typedef struct nvml_process_info_v1 {
    unsigned int pid;
    unsigned long long used_gpu_memory;
} nvml_process_info_v1;
enum { NVML_OK = 0, NVML_INSUFFICIENT_SIZE = 7 };
#define NVML_NOT_AVAILABLE (~0ull)

static struct {
    bool tried;
    void *lib;
    char why[128];
    int (*init)(void);
    int (*shutdown)(void);
    const char *(*error_string)(int);
    int (*by_pci_bus_id)(const char *, nvml_device *);
    int (*processes)(nvml_device, unsigned int *, void *); /* _v3, else _v2, else v1 */
    size_t info_size;
} nvml;

static bool nvml_open(void)
{
    if (nvml.tried)
        return nvml.lib != NULL;
    nvml.tried = true;
    nvml.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (nvml.lib == NULL) {
        snprintf(nvml.why, sizeof nvml.why, "NVML not found: %s", dlerror());
        return false;
    }
    static const char *const versions[] = {"nvmlDeviceGetComputeRunningProcesses_v3",
                                           "nvmlDeviceGetComputeRunningProcesses_v2",
                                           "nvmlDeviceGetComputeRunningProcesses"};
    for (size_t i = 0; i < 3 && nvml.processes == NULL; ++i) {
        *(void **)&nvml.processes = dlsym(nvml.lib, versions[i]);
        nvml.info_size = i < 2 ? sizeof(nvml_process_info) : sizeof(nvml_process_info_v1);
    }
    *(void **)&nvml.init = dlsym(nvml.lib, "nvmlInit_v2");
    *(void **)&nvml.shutdown = dlsym(nvml.lib, "nvmlShutdown");
    *(void **)&nvml.error_string = dlsym(nvml.lib, "nvmlErrorString");
    *(void **)&nvml.by_pci_bus_id = dlsym(nvml.lib, "nvmlDeviceGetHandleByPciBusId_v2");
    if (nvml.init == NULL || nvml.shutdown == NULL || nvml.error_string == NULL ||
        nvml.by_pci_bus_id == NULL || nvml.processes == NULL) {
        snprintf(nvml.why, sizeof nvml.why, "libnvidia-ml.so.1 lacks the functions used here");
        dlclose(nvml.lib);
        nvml.lib = NULL;
        return false;
    }
    return true;
}

/* This process's device memory on the current device, as NVML reports it;
 * false, with u->process_note saying why, when it cannot. */
static bool process_device_bytes(gputest_usage *u)
{
    char bus_id[32];
    int dev;
    nvml_device d;
    if (!nvml_open()) {
        snprintf(u->process_note, sizeof u->process_note, "%s", nvml.why);
        return false;
    }
    GPUTEST_CUDA(cudaGetDevice(&dev));
    GPUTEST_CUDA(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, dev));
    int r = nvml.init();
    if (r != NVML_OK) {
        snprintf(u->process_note, sizeof u->process_note, "nvmlInit: %s", nvml.error_string(r));
        return false;
    }
    bool found = false;
    unsigned char *infos = NULL;
    r = nvml.by_pci_bus_id(bus_id, &d);
    unsigned int n = 0;
    for (int attempt = 0; r == NVML_OK; ++attempt) {
        /* the list may grow between two calls: room for a few more */
        unsigned int room = n + 16;
        free(infos);
        infos = calloc(room, nvml.info_size);
        cr_assert_not_null(infos);
        n = room;
        r = nvml.processes(d, &n, infos);
        if (r == NVML_OK && n > room) /* never: NVML fills at most room */
            n = room;
        if (r != NVML_INSUFFICIENT_SIZE || attempt == 3)
            break;
        r = NVML_OK; /* n now says how many there are: try again */
    }
    if (r != NVML_OK) {
        snprintf(u->process_note, sizeof u->process_note, "NVML on %s: %s", bus_id,
                 nvml.error_string(r));
    } else {
        u->process_bytes = 0;
        for (unsigned int i = 0; i < n; ++i) {
            unsigned int pid;
            unsigned long long used;
            /* pid and used_gpu_memory lie at the same offsets in both structs */
            const nvml_process_info *p = (const void *)(infos + i * nvml.info_size);
            pid = p->pid;
            used = p->used_gpu_memory;
            if (pid != (unsigned int)getpid())
                continue;
            if (used == NVML_NOT_AVAILABLE) {
                snprintf(u->process_note, sizeof u->process_note,
                         "NVML lists this process (pid %u) on %s without its memory", pid, bus_id);
                found = false;
                break;
            }
            u->process_bytes += used; /* one entry per MIG instance */
            found = true;
        }
        if (!found && u->process_note[0] == '\0')
            snprintf(u->process_note, sizeof u->process_note,
                     "NVML does not list this process (pid %d) among the %u on %s "
                     "(another PID namespace?)",
                     (int)getpid(), n, bus_id);
    }
    free(infos);
    nvml.shutdown();
    return found;
}

gputest_usage gputest_measure_usage(void)
{
    gputest_usage u = {GPUTILE_POOL_STATS_INIT, false, 0, false, 0, ""};
    int dev, pools = 0;
    gputile_status s = gputile_pool_release();
    cr_assert_eq(s, GPUTILE_SUCCESS, "gputile_pool_release: %s", gputile_status_name(s));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    s = gputile_pool_get_stats(&u.pool);
    cr_assert_eq(s, GPUTILE_SUCCESS, "gputile_pool_get_stats: %s", gputile_status_name(s));
    GPUTEST_CUDA(cudaGetDevice(&dev));
    GPUTEST_CUDA(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev));
    if (pools) {
        cudaMemPool_t pool;
        unsigned long long used = 0; /* cuuint64_t */
        GPUTEST_CUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
        /* what the pool keeps for reuse (libgputile raises its release
         * threshold) is a cache, not a leak: hand it back before NVML counts */
        GPUTEST_CUDA(cudaMemPoolTrimTo(pool, 0));
        GPUTEST_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
        u.have_mempool = true;
        u.mempool_used = used;
    }
    u.have_process_bytes = process_device_bytes(&u);
    return u;
}

void gputest_assert_no_device_leak(const gputest_usage *before, const gputest_usage *after,
                                   size_t slack)
{
    if (before->have_mempool && after->have_mempool) {
        cr_log_info("default memory pool: %llu bytes in use before, %llu after",
                    before->mempool_used, after->mempool_used);
        cr_assert(after->mempool_used <= before->mempool_used + slack,
                  "device memory leaked from the default memory pool (cudaMallocAsync): %llu bytes "
                  "in use before, %llu after (tolerance %zu)",
                  before->mempool_used, after->mempool_used, slack);
    } else {
        cr_log_info("default memory pool: not supported on this device; not compared");
    }
    if (before->have_process_bytes && after->have_process_bytes) {
        cr_log_info("this process's device memory (NVML): %llu bytes before, %llu after",
                    before->process_bytes, after->process_bytes);
        cr_assert(after->process_bytes <= before->process_bytes + slack,
                  "device memory leaked: this process held %llu bytes before, %llu after "
                  "(NVML; tolerance %zu)",
                  before->process_bytes, after->process_bytes, slack);
    } else {
        cr_log_info("this process's device memory: not compared: %s",
                    before->have_process_bytes ? after->process_note : before->process_note);
    }
}

bool gputest_small(void)
{
    const char *env = getenv("GPUTEST_SMALL");
    return env != NULL && *env != '\0' && strcmp(env, "0") != 0;
}

bool gputest_in_shard(uint64_t key)
{
    const char *env = getenv("GPUTEST_SHARD");
    unsigned long i, n;
    if (env == NULL || sscanf(env, "%lu/%lu", &i, &n) != 2 || n == 0)
        return true;
    /* mix the key so that neighbouring keys land in different shards */
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return key % n == i;
}

size_t gputest_shrink(size_t n, size_t limit, size_t keep)
{
    if (!gputest_small() || n <= limit + keep)
        return n;
    return limit + n % keep;
}

void gputest_cuda_ok(cudaError_t err, const char *what, const char *file, int line)
{
    cr_assert(err == cudaSuccess, "%s:%d: %s: %s", file, line, what, gputest_cuda_text(err));
}

/* Attempt `attempt` (from 0) to allocate failed for want of memory: waits
 * 250 ms and says go on (GPUTILE_SUCCESS) for up to two minutes in all. */
gputile_status gputest_wait_for_memory(int attempt)
{
    if (attempt >= 480)
        return GPUTILE_ERROR_OUT_OF_MEMORY;
    (void)cudaGetLastError(); /* not sticky: clear it */
    const struct timespec pause = {0, 250 * 1000 * 1000};
    nanosleep(&pause, NULL);
    return GPUTILE_SUCCESS;
}

cudaError_t gputest_malloc(void **p, size_t bytes)
{
    /* Device memory another suite or process holds is given back within
     * seconds: wait for it rather than fail. */
    cudaError_t err;
    for (int a = 0; (err = cudaMalloc(p, bytes)) == cudaErrorMemoryAllocation &&
                    gputest_wait_for_memory(a) == GPUTILE_SUCCESS;
         ++a)
        ;
    return err;
}

static uint64_t state;

static void seed(void)
{
    const char *env = getenv("GPUTEST_SEED");
    uint64_t s = 0;
    if (env != NULL) {
        s = strtoull(env, NULL, 0);
    } else {
        FILE *f = fopen("/dev/urandom", "rb");
        if (f == NULL || fread(&s, sizeof s, 1, f) != 1)
            s = (uint64_t)time(NULL);
        if (f != NULL)
            fclose(f);
    }
    if (s == 0)
        s = 1;
    state = s;
    cr_log_info("random seed GPUTEST_SEED=0x%llx", (unsigned long long)s);
}

uint64_t gputest_rand(void)
{
    if (state == 0)
        seed();
    /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}

float gputest_uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)((gputest_rand() >> 40) * (1.0 / 16777216.0));
}

float gputest_small_int(int lo, int hi)
{
    return (float)(lo + (int)(gputest_rand() % (uint64_t)(hi - lo + 1)));
}

float gputest_poison(void)
{
    uint32_t bits = GPUTEST_POISON_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

bool gputest_is_poison(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits == GPUTEST_POISON_BITS;
}

static void cublas_gemm(cublasMath_t math, gputile_op ta, gputile_op tb, float alpha,
                        gputile_matrix a, gputile_matrix b, float beta, gputile_matrix c)
{
    cublasHandle_t h;
    int m = (int)c.height, n = (int)c.width;
    int k = (int)(ta == GPUTILE_OP_T ? a.height : a.width);
    cr_assert(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    cr_assert(cublasSetMathMode(h, math) == CUBLAS_STATUS_SUCCESS);
    cublasStatus_t st =
        cublasSgemm(h, tb == GPUTILE_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N,
                    ta == GPUTILE_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &alpha, b.elements,
                    (int)b.stride, a.elements, (int)a.stride, &beta, c.elements, (int)c.stride);
    cr_assert(st == CUBLAS_STATUS_SUCCESS, "cublasSgemm: status %d", (int)st);
    GPUTEST_CUDA(cudaDeviceSynchronize());
    cublasDestroy(h);
}

void gputest_cublas_gemm(gputile_op ta, gputile_op tb, float alpha, gputile_matrix a,
                         gputile_matrix b, float beta, gputile_matrix c)
{
    cublas_gemm(CUBLAS_PEDANTIC_MATH, ta, tb, alpha, a, b, beta, c);
}

void gputest_cublas_gemm_tf32(gputile_op ta, gputile_op tb, float alpha, gputile_matrix a,
                              gputile_matrix b, float beta, gputile_matrix c)
{
    cublas_gemm(CUBLAS_TF32_TENSOR_OP_MATH, ta, tb, alpha, a, b, beta, c);
}

void gputest_fill_random_bytes(unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t r = gputest_rand();
        memcpy(p + i, &r, 8);
    }
    for (; i < n; ++i)
        p[i] = (unsigned char)gputest_rand();
}

size_t gputest_first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    if (memcmp(a, b, n) == 0)
        return n;
    size_t i = 0;
    while (a[i] == b[i])
        ++i;
    return i;
}

size_t gputest_count_not(const unsigned char *p, size_t n, unsigned char v)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
        bad += p[i] != v;
    return bad;
}

static void spin_until_go(void *p)
{
    gputest_hold *h = p;
    while (!__atomic_load_n(&h->go, __ATOMIC_ACQUIRE))
        ;
}

static void *watchdog(void *p)
{
    gputest_hold *h = p;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += h->seconds;
    pthread_mutex_lock(&h->lock);
    while (!h->over && pthread_cond_timedwait(&h->done, &h->lock, &until) == 0)
        ;
    if (!h->over)
        __atomic_store_n(&h->fired, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&h->lock);
    __atomic_store_n(&h->go, 1, __ATOMIC_RELEASE);
    return NULL;
}

void gputest_hold_stream(gputest_hold *h, cudaStream_t s, int seconds)
{
    h->go = h->fired = 0;
    h->over = false;
    h->seconds = seconds;
    cr_assert_eq(pthread_mutex_init(&h->lock, NULL), 0);
    cr_assert_eq(pthread_cond_init(&h->done, NULL), 0);
    GPUTEST_CUDA(cudaLaunchHostFunc(s, spin_until_go, h));
    cr_assert_eq(pthread_create(&h->dog, NULL, watchdog, h), 0);
}

bool gputest_hold_fired(gputest_hold *h)
{
    return __atomic_load_n(&h->fired, __ATOMIC_ACQUIRE) != 0;
}

bool gputest_release(gputest_hold *h)
{
    pthread_mutex_lock(&h->lock);
    h->over = true;
    pthread_cond_signal(&h->done);
    pthread_mutex_unlock(&h->lock);
    cr_assert_eq(pthread_join(h->dog, NULL), 0); /* the watchdog lets the stream go */
    pthread_cond_destroy(&h->done);
    pthread_mutex_destroy(&h->lock);
    return !gputest_hold_fired(h);
}
