#ifndef SCLM_CISAL_SHIM_H
#define SCLM_CISAL_SHIM_H

// Intel ISA-L's CRC-32 (the zip/gzip polynomial, reflected): folded with PCLMULQDQ/VPCLMULQDQ where the
// processor has them, an order of magnitude faster than zlib's table-driven crc32. sclm checks each zip
// entry's CRC with it, after turning libarchive's own (zlib) check off.
#include <isa-l/crc.h>

// ISA-L's inflate, for zip entries compressed with deflate: about twice as fast as zlib's (which libarchive
// uses). The state is opaque to Swift (it holds arrays far too large to import as tuples).
#include <isa-l/igzip_lib.h>
#include <stdlib.h>

/// Allocates an ISA-L inflate state for a raw deflate stream (zip method 8); NULL when out of memory.
static inline void *sclm_isal_inflate_new(void) {
    struct inflate_state *state = malloc(sizeof *state);
    if (state) {
        isal_inflate_init(state);
        state->crc_flag = ISAL_DEFLATE;
    }
    return state;
}

/// Frees a state from `sclm_isal_inflate_new`.
static inline void sclm_isal_inflate_free(void *state) { free(state); }

/// Wraps `isal_inflate`: inflates from `*input` (`*input_count` bytes, both advanced past what was consumed)
/// into `output` (`capacity` bytes), sets `*written` and `*finished` (the stream's last block was decoded
/// and flushed), and returns ISA-L's status (negative for damaged data).
static inline int sclm_isal_inflate(void *opaque, const unsigned char **input, unsigned int *input_count,
                                    unsigned char *output, unsigned int capacity, unsigned int *written,
                                    int *finished) {
    struct inflate_state *state = opaque;
    state->next_in = (uint8_t *)*input;
    state->avail_in = *input_count;
    state->next_out = output;
    state->avail_out = capacity;
    int status = isal_inflate(state);
    *input = state->next_in;
    *input_count = state->avail_in;
    *written = capacity - state->avail_out;
    *finished = state->block_state == ISAL_BLOCK_FINISH;
    return status;
}

#endif
