/*
 * floor: the fastest plain "read CSV, write CSV" this machine does with libcsv, the parser that
 * maskclean uses. maskclean's CSV timings are compared with it.
 *
 *   gcc -O2 -o floor floor.c -lcsv
 *   ./floor data.csv > copy.csv        (FILE "-" reads standard input)
 *
 * It parses every record with libcsv and writes it back to standard output, quoting a field only
 * when it holds a comma, a double quote, CR or LF. Nothing is trimmed, so on a file written the
 * same way (bench/generate.py's) the output is byte-identical to the input. One thread, one
 * 1 MiB input buffer, one 1 MiB output buffer flushed with write(2).
 *
 * Exit status follows maskclean's: 65 malformed CSV, 66 input unreadable, 74 write error.
 */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BUF_SIZE = 1 << 20, EX_DATAERR = 65, EX_NOINPUT = 66, EX_IOERR = 74 };

static char out_buf[BUF_SIZE];
static size_t out_len;

struct state {
    int first_field;           /* no comma before the first field of a record */
    unsigned long long records;
};

static void write_all(const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(STDOUT_FILENO, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            perror("floor: write");
            exit(EX_IOERR);
        }
        p += k;
        n -= (size_t)k;
    }
}

static void flush_out(void) {
    write_all(out_buf, out_len);
    out_len = 0;
}

static void put(const char *p, size_t n) {
    if (n > BUF_SIZE - out_len) {
        flush_out();
        if (n > BUF_SIZE) { /* a field longer than the buffer goes straight out */
            write_all(p, n);
            return;
        }
    }
    memcpy(out_buf + out_len, p, n);
    out_len += n;
}

static void put_char(char c) {
    if (out_len == BUF_SIZE) flush_out();
    out_buf[out_len++] = c;
}

/* A table rather than four comparisons per byte: this scan runs over every byte of the file. */
static unsigned char needs_quotes[256];

static int field_needs_quotes(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (needs_quotes[p[i]]) return 1;
    return 0;
}

static void put_quoted(const char *p, size_t n) {
    put_char('"');
    const char *end = p + n;
    for (const char *q; (q = memchr(p, '"', (size_t)(end - p))) != NULL; p = q + 1) {
        put(p, (size_t)(q - p + 1));
        put_char('"'); /* the quote just written, doubled */
    }
    put(p, (size_t)(end - p));
    put_char('"');
}

static void on_field(void *data, size_t n, void *ctx) {
    struct state *st = ctx;
    if (!st->first_field) put_char(',');
    st->first_field = 0;
    if (n == 0) return; /* libcsv may hand an empty field a NULL pointer */
    if (field_needs_quotes(data, n))
        put_quoted(data, n);
    else
        put(data, n);
}

static void on_record(int terminator, void *ctx) {
    struct state *st = ctx;
    (void)terminator;
    put_char('\n');
    st->first_field = 1;
    st->records++;
}

/* libcsv trims spaces and tabs around unquoted fields unless told that nothing is a space;
   maskclean keeps cells byte for byte, so the floor must too. */
static int no_space(unsigned char c) {
    (void)c;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.csv > out.csv   (FILE \"-\" is standard input)\n", argv[0]);
        return 64;
    }
    const char *path = argv[1];
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
        return EX_NOINPUT;
    }

    needs_quotes[','] = needs_quotes['"'] = needs_quotes['\r'] = needs_quotes['\n'] = 1;

    struct csv_parser parser;
    /* Strict, as a cleaner that must reject malformed input has to be. */
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        fputs("floor: csv_init failed\n", stderr);
        return 70;
    }
    csv_set_space_func(&parser, no_space);

    static char in_buf[BUF_SIZE];
    struct state st = {1, 0};
    for (;;) {
        ssize_t n = read(fd, in_buf, sizeof in_buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
            return EX_NOINPUT;
        }
        if (n == 0) break;
        if (csv_parse(&parser, in_buf, (size_t)n, on_field, on_record, &st) != (size_t)n) {
            fprintf(stderr, "floor: %s: %s\n", path, csv_strerror(csv_error(&parser)));
            return EX_DATAERR;
        }
    }
    if (csv_fini(&parser, on_field, on_record, &st) != 0) {
        fprintf(stderr, "floor: %s: %s\n", path, csv_strerror(csv_error(&parser)));
        return EX_DATAERR;
    }
    csv_free(&parser);
    flush_out();
    if (fd != STDIN_FILENO) close(fd);
    return 0;
}
