/* One core's gzip inflate speed, zlib against Intel ISA-L's igzip (issue 32): the two libraries
   maskclean inflates gzip inputs with (docs/record-formats.md), each on the same file held in
   memory, its output thrown away 1 MiB at a time as maskclean's reader takes it. Prints the
   median of five runs of each, in decompressed MB per second:

       zlib 386.1 MB/s, igzip 991.4 MB/s

   Built by bench/run.py: gcc -O2 bench/inflate.c -lz -lisal. */
#include <isa-l/igzip_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#define OUT (1 << 20)
#define RUNS 5

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Every member, one after the other; returns the bytes inflated, or -1 on an error. */
static long with_zlib(unsigned char *in, long size, unsigned char *out) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) return -1;
    z.next_in = in;
    z.avail_in = (uInt)size;
    long total = 0;
    for (;;) {
        z.next_out = out;
        z.avail_out = OUT;
        int status = inflate(&z, Z_NO_FLUSH);
        total += OUT - z.avail_out;
        if (status == Z_STREAM_END) {
            if (z.avail_in == 0) break;
            inflateReset(&z);
        } else if (status != Z_OK) {
            total = -1;
            break;
        }
    }
    inflateEnd(&z);
    return total;
}

static long with_igzip(unsigned char *in, long size, unsigned char *out) {
    static struct inflate_state state;
    isal_inflate_init(&state);
    state.crc_flag = ISAL_GZIP;
    state.next_in = in;
    state.avail_in = (uint32_t)size;
    long total = 0;
    for (;;) {
        state.next_out = out;
        state.avail_out = OUT;
        int status = isal_inflate(&state);
        total += OUT - state.avail_out;
        if (status != ISAL_DECOMP_OK) return -1;
        if (state.block_state == ISAL_BLOCK_FINISH) {
            if (state.avail_in == 0) break;
            isal_inflate_reset(&state);
            state.crc_flag = ISAL_GZIP;
        }
    }
    return total;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_speed(long (*inflater)(unsigned char *, long, unsigned char *), unsigned char *in,
                           long size, unsigned char *out) {
    double speeds[RUNS];
    for (int run = 0; run < RUNS; run++) {
        double start = now();
        long total = inflater(in, size, out);
        if (total < 0) return -1;
        speeds[run] = total / (now() - start) / 1e6;
    }
    qsort(speeds, RUNS, sizeof speeds[0], compare);
    return speeds[RUNS / 2];
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: inflate FILE.gz\n");
        return 64;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 66;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *in = malloc(size), *out = malloc(OUT);
    if (!in || !out || fread(in, 1, size, file) != (size_t)size) {
        fprintf(stderr, "%s: cannot read it\n", argv[1]);
        return 66;
    }
    double zlib = median_speed(with_zlib, in, size, out);
    double igzip = median_speed(with_igzip, in, size, out);
    if (zlib < 0 || igzip < 0) {
        fprintf(stderr, "%s: not gzip data\n", argv[1]);
        return 65;
    }
    printf("zlib %.1f MB/s, igzip %.1f MB/s\n", zlib, igzip);
    return 0;
}
