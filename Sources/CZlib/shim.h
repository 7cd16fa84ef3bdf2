#include <zlib.h>

/* inflateInit2 and deflateInit2 are macros that pass the library's version and the stream's size:
   Swift cannot call a macro, so these functions do it. */
static inline int maskclean_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

static inline int maskclean_deflate_init(z_stream *stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}
