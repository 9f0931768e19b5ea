/* SPDX-License-Identifier: MIT */
/*
 * histogram_image.c: the image rows of gputile-bench histogram (issue 19):
 * gputile_histogram_even() / _range() against CUB's DeviceHistogram in the
 * same run, on 1 GiB of random samples:
 *   u8 256       uint8, 256 bins                      HistogramEven
 *   u16 4096     uint16, 4,096 bins over [0, 65536)   HistogramEven
 *   u16 65536    uint16, one bin per value            HistogramEven
 *   rgba8 4x256  uint8 x 4 channels, 256 bins each    MultiHistogramEven<4, 4>
 *   u8 roi       uint8, a 16384 x 16384 region at column 4099 of rows of
 *                65,536 bytes, 256 bins               HistogramEven with a row stride
 *   f32 range 64 / 1024  float in [-1, 1), uneven edges   HistogramRange
 * GB/s counts the bytes the histogram covers (the region's bytes for the
 * ROI); "read%" is libgputile's share of a float4 read kernel's GB/s over
 * the whole 1 GiB buffer, timed in the same run. Every result is checked
 * against CUB's counts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gputile.h"
#include "device_kernels.h"
#include "histogram_image_ref.h"

#define BYTES ((size_t)1 << 30)
#define ROI_SIDE 16384
#define ROI_PITCH 65536
#define ROI_COL 4099

enum row_kind { U8, U16_4096, U16, RGBA8, U8_ROI, F32_R64, F32_R1024, NROWS };
static const char *row_name[] = {"u8 256",       "u16 4096",     "u16 65536",     "rgba8 4x256",
                                 "u8 roi 16k^2", "f32 range 64", "f32 range 1024"};

typedef struct img_ctx {
    int what; /* 0 read, 1 libgputile, 2 CUB, 3 read of the ROI's rows */
    const void *d;
    float *sink;
    gputile_hist_input in;
    gputile_hist_even even[4];
    int range;
    int32_t nedges[1];
    const double *edges[1];
    uint64_t *counts[4];
    benchimg_cub *cub;
} img_ctx;

static void enqueue(void *p, cudaStream_t stream)
{
    img_ctx *c = p;
    if (c->what == 0) {
        BENCH_CUDA(bench_read((const float *)c->d, BYTES, c->sink, bench_sm_count(), stream));
        return;
    }
    if (c->what == 3) { /* the ROI's rows, from their first 16-byte boundary */
        BENCH_CUDA(bench_read_rows((const char *)c->d + ROI_COL + 16 - ROI_COL % 16, ROI_SIDE - 16,
                                   ROI_SIDE, ROI_PITCH, c->sink, bench_sm_count(), stream));
        return;
    }
    if (c->what == 2) {
        benchimg_cub_run(c->cub, stream);
        return;
    }
    gputile_status s = c->range ? gputile_histogram_range(&c->in, c->nedges, c->edges, c->counts,
                                                          GPUTILE_HIST_OVERWRITE, stream, NULL)
                                : gputile_histogram_even(&c->in, c->even, c->counts,
                                                         GPUTILE_HIST_OVERWRITE, stream, NULL);
    if (s != GPUTILE_SUCCESS) {
        fprintf(stderr, "gputile-bench: image histogram: %s (%s)\n", gputile_strerror(s),
                gputile_last_cuda_error_name());
        exit(1);
    }
}

/* libgputile's counts against CUB's, every channel. */
static int verify(const img_ctx *lib, const benchimg_cub *cub, int channels, int nbins,
                  const char *name)
{
    uint64_t *a = malloc((size_t)nbins * 8);
    int *b = malloc((size_t)nbins * 4);
    int ok = a != NULL && b != NULL;
    for (int c = 0; ok && c < channels; ++c) {
        BENCH_CUDA(cudaMemcpy(a, lib->counts[c], (size_t)nbins * 8, cudaMemcpyDeviceToHost));
        BENCH_CUDA(cudaMemcpy(b, cub->hist[c], (size_t)nbins * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; ok && i < nbins; ++i)
            if (a[i] != (uint64_t)(uint32_t)b[i]) {
                fprintf(stderr, "gputile-bench: MISMATCH %s channel %d bin %d: %llu, CUB %d\n",
                        name, c, i, (unsigned long long)a[i], b[i]);
                ok = 0;
            }
    }
    free(a);
    free(b);
    return ok;
}

/* Sorted uneven edges over [-1, 1), floats (so CUB's float levels are the
 * same numbers), ending exactly at 1. */
static void make_edges(double *e, int n)
{
    double x = -1.0, w = 0.0;
    for (int i = 0; i < n - 1; ++i)
        w += 1.0 + (double)(i % 7);
    for (int i = 0; i < n; ++i) {
        e[i] = (double)(float)x;
        x += 2.0 * (1.0 + (double)(i % 7)) / w;
    }
    e[n - 1] = 1.0;
}

int bench_histogram_image(const bench_options *o, const char *only, cudaStream_t stream)
{
    void *d;
    float *sink, *d_levels;
    uint64_t *counts;
    int *hist;
    BENCH_CUDA(cudaMalloc(&d, BYTES));
    BENCH_CUDA(cudaMalloc((void **)&sink, 4));
    BENCH_CUDA(cudaMalloc((void **)&counts, 4 * 65536 * 8));
    BENCH_CUDA(cudaMalloc((void **)&hist, 4 * 65536 * 4));
    BENCH_CUDA(cudaMalloc((void **)&d_levels, 1025 * 4));
    double *edges = malloc(1025 * sizeof *edges);
    float *fedges = malloc(1025 * sizeof *fedges);
    if (edges == NULL || fedges == NULL)
        return 1;

    if (o->csv)
        printf("work,covered_bytes,read_GBps,lib_GBps,lib_read_pct,lib_tier,lib_copies,"
               "cub_GBps,lib_vs_cub,correct\n");
    else
        printf("\n%-15s %8s %8s %6s %-10s %8s %8s %s\n", "image work", "read", "lib", "read%",
               "plan", "CUB", "lib/CUB", "ok");
    int all_ok = 1;
    for (int r = 0; r < NROWS; ++r) {
        if (only != NULL && strstr(row_name[r], only) == NULL)
            continue;
        img_ctx base = {.d = d, .sink = sink};
        benchimg_cub cub = {.samples = d};
        gputile_hist_input in = GPUTILE_HIST_INPUT_INIT;
        in.samples = d;
        in.height = 1;
        int channels = 1, nbins = 256;
        size_t covered = BYTES;
        if (r == F32_R64 || r == F32_R1024) {
            BENCH_CUDA(bench_fill((float *)d, BYTES / 4, 1234 + (uint64_t)r, stream));
        } else {
            benchimg_fill_bytes(d, BYTES, 99 + (uint64_t)r, stream);
        }
        switch (r) {
        case U8:
            in.type = GPUTILE_SAMPLE_U8;
            in.width = BYTES;
            cub.kind = BENCHIMG_U8;
            cub.n = BYTES;
            break;
        case U16_4096:
        case U16:
            nbins = r == U16 ? 65536 : 4096;
            in.type = GPUTILE_SAMPLE_U16;
            in.width = BYTES / 2;
            cub.kind = BENCHIMG_U16;
            cub.n = BYTES / 2;
            break;
        case RGBA8:
            channels = 4;
            in.type = GPUTILE_SAMPLE_U8;
            in.channels = 4;
            in.width = BYTES / 4;
            cub.kind = BENCHIMG_RGBA8;
            cub.n = BYTES / 4;
            break;
        case U8_ROI:
            in.type = GPUTILE_SAMPLE_U8;
            in.samples = (const char *)d + ROI_COL;
            in.width = ROI_SIDE;
            in.height = ROI_SIDE;
            in.row_stride_bytes = ROI_PITCH;
            cub.kind = BENCHIMG_U8_ROI;
            cub.samples = in.samples;
            cub.n = ROI_SIDE;
            cub.height = ROI_SIDE;
            cub.stride = ROI_PITCH;
            covered = (size_t)ROI_SIDE * ROI_SIDE;
            break;
        default:
            nbins = r == F32_R64 ? 63 : 1023;
            in.type = GPUTILE_SAMPLE_F32;
            in.width = BYTES / 4;
            make_edges(edges, nbins + 1);
            for (int i = 0; i <= nbins; ++i)
                fedges[i] = (float)edges[i];
            BENCH_CUDA(
                cudaMemcpy(d_levels, fedges, (size_t)(nbins + 1) * 4, cudaMemcpyHostToDevice));
            base.range = 1;
            base.nedges[0] = nbins + 1;
            base.edges[0] = edges;
            cub.kind = BENCHIMG_F32_RANGE;
            cub.n = BYTES / 4;
            cub.d_levels = d_levels;
        }
        base.in = in;
        cub.nbins = nbins;
        for (int c = 0; c < 4; ++c) {
            base.even[c] =
                (gputile_hist_even){nbins, 0, 0.0, in.type == GPUTILE_SAMPLE_U16 ? 65536.0 : 256.0};
            base.counts[c] = counts + (size_t)c * 65536;
            cub.hist[c] = hist + (size_t)c * 65536;
        }
        benchimg_cub_size(&cub);
        BENCH_CUDA(cudaMalloc(&cub.temp, cub.temp_bytes ? cub.temp_bytes : 1));
        base.cub = &cub;
        BENCH_CUDA(cudaStreamSynchronize(stream));

        img_ctx c[4];
        bench_item items[4] = {{0}}; /* drain: false, back to back */
        const int nitems = r == U8_ROI ? 4 : 3;
        for (int i = 0; i < nitems; ++i) {
            c[i] = base;
            c[i].what = i;
            items[i].name = i == 0 ? "read" : i == 1 ? "libgputile" : i == 2 ? "CUB" : "ROI read";
            items[i].enqueue = enqueue;
            items[i].ctx = &c[i];
        }
        bench_progress("histogram: %s", row_name[r]);
        bench_time(items, nitems, o, stream);

        /* the plan, and the counts of one more run of each */
        gputile_histogram_options plan = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        gputile_status s =
            base.range ? gputile_histogram_range(&base.in, base.nedges, base.edges, base.counts,
                                                 GPUTILE_HIST_OVERWRITE, stream, &plan)
                       : gputile_histogram_even(&base.in, base.even, base.counts,
                                                GPUTILE_HIST_OVERWRITE, stream, &plan);
        if (s != GPUTILE_SUCCESS)
            return 1;
        benchimg_cub_run(&cub, stream);
        BENCH_CUDA(cudaStreamSynchronize(stream));
        const int ok = verify(&c[1], &cub, channels, nbins, row_name[r]);
        all_ok &= ok;

        const double read = (double)BYTES / (items[0].median_ms * 1e6);
        const double lib = (double)covered / (items[1].median_ms * 1e6);
        const double cubg = (double)covered / (items[2].median_ms * 1e6);
        char planstr[32];
        snprintf(planstr, sizeof planstr, "%s/%d", gputile_hist_tier_name(plan.tier_used),
                 plan.copies_used);
        if (o->csv)
            printf("%s,%zu,%.1f,%.1f,%.1f,%s,%d,%.1f,%.3f,%d\n", row_name[r], covered, read, lib,
                   100.0 * lib / read, gputile_hist_tier_name(plan.tier_used), plan.copies_used,
                   cubg, lib / cubg, ok);
        else
            printf("%-15s %8.1f %8.1f %5.1f%% %-10s %8.1f %7.2fx %s\n", row_name[r], read, lib,
                   100.0 * lib / read, planstr, cubg, lib / cubg, ok ? "yes" : "NO");
        if (r == U8_ROI) { /* the access pattern's own ceiling, beside the flat read's */
            const double roi_read = (double)(ROI_SIDE - 16) * ROI_SIDE / (items[3].median_ms * 1e6);
            const size_t bytes = (size_t)(ROI_SIDE - 16) * ROI_SIDE;
            if (o->csv)
                printf("u8 roi rows read,%zu,%.1f,,,,,,,\n", bytes, roi_read);
            else
                printf("  a read kernel over the ROI's rows (%zu bytes): %.1f GB/s, %.1f%% of "
                       "read; libgputile %.1f%% of it\n",
                       bytes, roi_read, 100.0 * roi_read / read, 100.0 * lib / roi_read);
        }
        fflush(stdout);
        BENCH_CUDA(cudaFree(cub.temp));
    }
    if (!o->csv)
        printf("GB/s of the bytes each histogram covers (1 GiB; the ROI: %d x %d bytes of rows of "
               "%d); read: float4 read kernel over 1 GiB; plan: tier/copies\n",
               ROI_SIDE, ROI_SIDE, ROI_PITCH);
    BENCH_CUDA(cudaFree(d));
    BENCH_CUDA(cudaFree(sink));
    BENCH_CUDA(cudaFree(counts));
    BENCH_CUDA(cudaFree(hist));
    BENCH_CUDA(cudaFree(d_levels));
    free(edges);
    free(fedges);
    return all_ok ? 0 : 1;
}
