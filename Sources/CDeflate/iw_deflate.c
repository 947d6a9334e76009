#include "iw_deflate.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Input coded as one block at most: the block's Huffman tables follow its part of the band. Two
   stored blocks' worth, so that a block stored whole wastes no header. */
#define BLOCK_INPUT (2u * 65535u)
#define MAX_MATCH 258
#define LITLEN_CODES 286
#define DIST_CODES 30
#define LENGTH_CODES 19
/* A run of the byte before is coded from 5 bytes on: shorter ones cost more than their literals
   on filtered rows (measured on the photo, wallpaper and SampleImages sheets: 3 and 4 make files
   0.5-1 % larger and the coder slower). */
#define MIN_RUN 5

/* RFC 1951, 3.2.5: lengths 3-258 as a code and extra bits (distance 1 is code 0, no extra bits). */
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
/* The order the code length code's lengths are sent in (3.2.7). */
static const uint8_t length_order[LENGTH_CODES] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* The coder's hot functions are inlined into each of its two versions (see iw_deflate_band). */
#define HOT static inline __attribute__((always_inline))

/* The length code of every match length, made once. */
static uint8_t length_symbols[MAX_MATCH + 1];
static pthread_once_t length_symbols_made = PTHREAD_ONCE_INIT;

static void make_length_symbols(void) {
    for (unsigned length = 3; length <= MAX_MATCH; length++) {
        int s = 28;
        while (length_base[s] > length) s--;
        length_symbols[length] = (uint8_t)s;
    }
}

HOT int length_symbol(unsigned length) { return length_symbols[length]; }


/* Bits written least significant first, as deflate orders them. */
typedef struct {
    uint8_t *out;
    size_t at;
    uint64_t bits;
    int count;
} writer;

/* Adds `n` bits, at most 56 (with the 7 at most held, they fit one word and leave a part byte
   behind): the whole bytes are stored eight at a time, so the output keeps 8 bytes of room past
   what is written (see iw_deflate_bound). */
HOT void put(writer *w, uint64_t value, int n) {
    w->bits |= value << w->count;
    w->count += n;
    uint64_t bits = w->bits;
    memcpy(w->out + w->at, &bits, 8);
    int whole = w->count >> 3;
    w->at += (size_t)whole;
    w->bits = bits >> (whole << 3);
    w->count &= 7;
}

/* Pads to a byte boundary and writes out what is held. */
static void align(writer *w) {
    if (w->count > 0) w->out[w->at++] = (uint8_t)w->bits;
    w->bits = 0;
    w->count = 0;
}

/* Code lengths of at most `limit` bits for `n` symbols of frequencies `freq`, minimum redundancy
   within the limit: a Huffman tree from the frequencies in order (ties to the lower symbol, a leaf
   before a node), lengths over the limit brought to it by moving leaves down (each move lowers the
   Kraft sum by one unit), then lengths dealt out from the shortest to the most frequent. A code of
   one symbol gets a second, unused one, so that every code is complete. */
static void code_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths) {
    int symbols[LITLEN_CODES], used = 0;
    memset(lengths, 0, (size_t)n);
    for (int s = 0; s < n; s++)
        if (freq[s]) symbols[used++] = s;
    if (used == 0) return;
    if (used == 1) {
        lengths[symbols[0]] = 1;
        lengths[symbols[0] == 0 ? 1 : 0] = 1;
        return;
    }
    /* In order of (frequency, symbol): a stable radix sort of the symbols (taken in ascending
       order) by frequency, a byte at a time, as many bytes as the largest frequency has. */
    uint32_t most = 0;
    for (int i = 0; i < used; i++) most = freq[symbols[i]] > most ? freq[symbols[i]] : most;
    int spare[LITLEN_CODES], *from = symbols, *to = spare;
    for (int shift = 0; shift < 32 && (most >> shift) != 0; shift += 8) {
        int start[257] = {0};
        for (int i = 0; i < used; i++) start[((freq[from[i]] >> shift) & 255) + 1]++;
        for (int b = 0; b < 256; b++) start[b + 1] += start[b];
        for (int i = 0; i < used; i++) to[start[(freq[from[i]] >> shift) & 255]++] = from[i];
        int *sorted = to;
        to = from;
        from = sorted;
    }
    if (from != symbols) memcpy(symbols, from, sizeof(int) * (size_t)used);
    uint64_t weight[2 * LITLEN_CODES];
    int parent[2 * LITLEN_CODES], depth[2 * LITLEN_CODES];
    for (int i = 0; i < used; i++) weight[i] = freq[symbols[i]];
    int leaf = 0, node = used;
    for (int made = used; made < 2 * used - 1; made++) {
        int pick[2];
        for (int k = 0; k < 2; k++) {
            if (leaf < used && (node >= made || weight[leaf] <= weight[node])) {
                pick[k] = leaf++;
            } else {
                pick[k] = node++;
            }
        }
        weight[made] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = made;
        parent[pick[1]] = made;
    }
    int root = 2 * used - 2;
    depth[root] = 0;
    for (int i = root - 1; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
    int count[64] = {0};
    for (int i = 0; i < used; i++) count[depth[i] < limit ? depth[i] : limit]++;
    uint64_t kraft = 0;
    for (int len = 1; len <= limit; len++) kraft += (uint64_t)count[len] << (limit - len);
    while (kraft > (1ull << limit)) {
        int len = limit - 1;
        while (count[len] == 0) len--;
        count[len]--;
        count[len + 1] += 2;
        count[limit]--;
        kraft--;
    }
    /* The most frequent symbols (last in order) get the shortest lengths. */
    int next = used - 1;
    for (int len = 1; len <= limit; len++)
        for (int k = 0; k < count[len]; k++) lengths[symbols[next--]] = (uint8_t)len;
}

/* Canonical codes (3.2.2) for `lengths`, bit-reversed for writing least significant bit first. */
static void codes_for(const uint8_t *lengths, int n, uint16_t *codes) {
    int count[16] = {0};
    for (int s = 0; s < n; s++) count[lengths[s]]++;
    count[0] = 0;
    uint16_t next[16];
    unsigned code = 0;
    for (int len = 1; len < 16; len++) {
        code = (code + count[len - 1]) << 1;
        next[len] = (uint16_t)code;
    }
    for (int s = 0; s < n; s++) {
        int len = lengths[s];
        if (!len) {
            codes[s] = 0;
            continue;
        }
        unsigned c = next[len]++, reversed = 0;
        for (int b = 0; b < len; b++) reversed |= ((c >> b) & 1u) << (len - 1 - b);
        codes[s] = (uint16_t)reversed;
    }
}

/* A block is coded as runs, each after a span of literals taken from the input: an entry holds
   the span's length (bits 9-31) and the run's (bits 0-8; 0 for the block's last span). A run
   repeats the byte before it: distance 1. */
#define SPAN_SHIFT 9

HOT size_t same_bytes(const uint8_t *a, const uint8_t *b, size_t most) {
    size_t n = 0;
    while (n + 8 <= most) {
        uint64_t x, y;
        memcpy(&x, a + n, 8);
        memcpy(&y, b + n, 8);
        uint64_t differ = x ^ y;
        if (differ) return n + ((size_t)__builtin_ctzll(differ) >> 3);
        n += 8;
    }
    while (n < most && a[n] == b[n]) n++;
    return n;
}

/* The code length code's symbols for the lengths `all` (`n` of them): runs of zeros by 17 and 18,
   repeats by 16; each entry a symbol (low 5 bits) and its extra bits' value (above). */
static int length_runs(const uint8_t *all, int n, uint16_t *runs) {
    int count = 0;
    for (int i = 0; i < n;) {
        int value = all[i], run = 1;
        while (i + run < n && all[i + run] == value) run++;
        i += run;
        if (value == 0) {
            while (run >= 11) {
                int take = run < 138 ? run : 138;
                runs[count++] = (uint16_t)(18 | (take - 11) << 5);
                run -= take;
            }
            if (run >= 3) {
                runs[count++] = (uint16_t)(17 | (run - 3) << 5);
                run = 0;
            }
            while (run-- > 0) runs[count++] = 0;
        } else {
            runs[count++] = (uint16_t)value;
            run--;
            while (run >= 3) {
                int take = run < 6 ? run : 6;
                runs[count++] = (uint16_t)(16 | (take - 3) << 5);
                run -= take;
            }
            while (run-- > 0) runs[count++] = (uint16_t)value;
        }
    }
    return count;
}

static const uint8_t run_extra[LENGTH_CODES] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};

/* `input` (`size` bytes) in stored blocks of at most 65,535 bytes, the last one final when
   `final`. */
static void stored(writer *w, const uint8_t *input, size_t size, int final) {
    do {
        size_t take = size < 65535 ? size : 65535;
        put(w, (final && take == size) ? 1 : 0, 1);
        put(w, 0, 2);
        align(w);
        w->out[w->at++] = (uint8_t)take;
        w->out[w->at++] = (uint8_t)(take >> 8);
        w->out[w->at++] = (uint8_t)~take;
        w->out[w->at++] = (uint8_t)(~take >> 8);
        memcpy(w->out + w->at, input, take);
        w->at += take;
        input += take;
        size -= take;
    } while (size > 0);
}

/* Counts the literals of `span` into `lanes`, four counts at a time so that neighbouring bytes
   do not wait on each other's stores. */
HOT void count_literals(const uint8_t *span, size_t n, uint32_t lanes[4][256]) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        lanes[0][span[i]]++;
        lanes[1][span[i + 1]]++;
        lanes[2][span[i + 2]]++;
        lanes[3][span[i + 3]]++;
    }
    for (; i < n; i++) lanes[0][span[i]]++;
}

/* One block of `entries` standing for `input` (`size` bytes): dynamic Huffman, or stored when
   that is smaller. */
HOT void block(writer *w, const uint32_t *entries, size_t count, const uint8_t *input, size_t size, int final) {
    uint32_t litlen_freq[LITLEN_CODES] = {0};
    litlen_freq[256] = 1;
    uint64_t extra_bits = 0, matches = 0; /* every match at distance 1: one distance code */
    {
        uint32_t lanes[4][256];
        memset(lanes, 0, sizeof lanes);
        const uint8_t *at = input;
        for (size_t t = 0; t < count; t++) {
            size_t span = entries[t] >> SPAN_SHIFT;
            unsigned length = entries[t] & 0x1FF;
            count_literals(at, span, lanes);
            at += span + length;
            if (length) {
                int ls = length_symbol(length);
                litlen_freq[257 + ls]++;
                matches++;
                extra_bits += length_extra[ls];
            }
        }
        for (int b = 0; b < 256; b++) litlen_freq[b] += lanes[0][b] + lanes[1][b] + lanes[2][b] + lanes[3][b];
    }
    uint8_t litlen_lengths[LITLEN_CODES], dist_lengths[DIST_CODES];
    code_lengths(litlen_freq, LITLEN_CODES, 15, litlen_lengths);
    /* Distance 1 only, or none: a complete code of two (the second unused). */
    memset(dist_lengths, 0, sizeof dist_lengths);
    dist_lengths[0] = dist_lengths[1] = 1;
    int hlit = LITLEN_CODES, hdist = 2;
    while (hlit > 257 && !litlen_lengths[hlit - 1]) hlit--;
    uint8_t all[LITLEN_CODES + DIST_CODES];
    memcpy(all, litlen_lengths, (size_t)hlit);
    memcpy(all + hlit, dist_lengths, (size_t)hdist);
    uint16_t runs[LITLEN_CODES + DIST_CODES];
    int run_count = length_runs(all, hlit + hdist, runs);
    uint32_t run_freq[LENGTH_CODES] = {0};
    for (int r = 0; r < run_count; r++) run_freq[runs[r] & 31]++;
    uint8_t run_lengths[LENGTH_CODES];
    code_lengths(run_freq, LENGTH_CODES, 7, run_lengths);
    int hclen = LENGTH_CODES;
    while (hclen > 4 && !run_lengths[length_order[hclen - 1]]) hclen--;

    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)hclen + extra_bits + matches;
    for (int r = 0; r < run_count; r++) bits += run_lengths[runs[r] & 31] + run_extra[runs[r] & 31];
    for (int s = 0; s < LITLEN_CODES; s++) bits += (uint64_t)litlen_freq[s] * litlen_lengths[s];
    uint64_t stored_bits = 8 * ((uint64_t)size + 5 * (size / 65535 + 1)) + 7;
    if (stored_bits <= bits) {
        stored(w, input, size, final);
        return;
    }

    uint16_t litlen_codes[LITLEN_CODES], dist_codes[DIST_CODES], run_codes[LENGTH_CODES];
    codes_for(litlen_lengths, LITLEN_CODES, litlen_codes);
    codes_for(dist_lengths, DIST_CODES, dist_codes);
    codes_for(run_lengths, LENGTH_CODES, run_codes);
    put(w, final ? 1 : 0, 1);
    put(w, 2, 2);
    put(w, (uint32_t)(hlit - 257), 5);
    put(w, (uint32_t)(hdist - 1), 5);
    put(w, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++) put(w, run_lengths[length_order[i]], 3);
    for (int r = 0; r < run_count; r++) {
        int symbol = runs[r] & 31;
        put(w, run_codes[symbol], run_lengths[symbol]);
        if (run_extra[symbol]) put(w, runs[r] >> 5, run_extra[symbol]);
    }
    /* The literals' codes as words, and the writer's state held in locals: three literals are
       added to the bits and then their whole bytes stored, as put does. */
    uint64_t literal_code[256];
    for (int b = 0; b < 256; b++) literal_code[b] = litlen_codes[b];
    const uint8_t *at = input;
    for (size_t t = 0; t < count; t++) {
        uint32_t entry = entries[t];
        size_t span = entry >> SPAN_SHIFT;
        uint64_t bits = w->bits;
        int held = w->count;
        uint8_t *out = w->out + w->at;
        for (const uint8_t *three = at, *stop = at + span - span % 3; three < stop; three += 3) {
            unsigned a = three[0], b = three[1], c = three[2];
            bits |= literal_code[a] << held;
            held += litlen_lengths[a];
            bits |= literal_code[b] << held;
            held += litlen_lengths[b];
            bits |= literal_code[c] << held;
            held += litlen_lengths[c];
            memcpy(out, &bits, 8);
            out += held >> 3;
            bits >>= held & ~7;
            held &= 7;
        }
        w->bits = bits;
        w->count = held;
        w->at = (size_t)(out - w->out);
        for (size_t i = span - span % 3; i < span; i++) put(w, literal_code[at[i]], litlen_lengths[at[i]]);
        at += span;
        unsigned length = entry & 0x1FF;
        if (!length) continue;
        int ls = length_symbol(length);
        /* The length's code and extra bits, then distance 1's code. */
        put(w,
            (uint64_t)litlen_codes[257 + ls] | (uint64_t)(length - length_base[ls]) << litlen_lengths[257 + ls] |
                (uint64_t)dist_codes[0] << (litlen_lengths[257 + ls] + length_extra[ls]),
            litlen_lengths[257 + ls] + length_extra[ls] + dist_lengths[0]);
        at += length;
    }
    put(w, litlen_codes[256], litlen_lengths[256]);
}

/* The high bit of each byte of `v` that is zero, exactly (no carry between bytes). */
HOT uint64_t zero_bytes(uint64_t v) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return ~(((v & low7) + low7) | v | low7);
}

size_t iw_deflate_bound(size_t size) {
    /* Stored blocks at worst, a byte of padding a block, and the writer's 8 bytes of room. */
    return size + 5 * (size / 65535 + 1) + 16 * (size / BLOCK_INPUT + 1) + 24;
}

HOT size_t deflate_band(const uint8_t *data, size_t size, int last, uint8_t *out) {
    writer w = {out, 0, 0, 0};
    if (size == 0) {
        if (last) stored(&w, data, 0, 1);
    } else {
        /* At most one entry for every MIN_RUN bytes, and the last span's. */
        size_t most_entries = (BLOCK_INPUT < size ? BLOCK_INPUT : size) / MIN_RUN + 2;
        uint32_t *entries = malloc(sizeof(uint32_t) * most_entries);
        if (!entries) { /* no room to look for runs: the bytes as they are */
            stored(&w, data, size, last);
        } else {
            size_t at = 0;
            while (at < size) {
                size_t start = at, end = size - at > BLOCK_INPUT ? at + BLOCK_INPUT : size, count = 0;
                size_t span_start = at;
                while (at < end) {
                    /* Sixteen bytes at a time, else eight: a run starts where MIN_RUN bytes in a
                       row equal the byte before each; the first such place among the sixteen
                       (eight) whose bytes lie in them, else that many places on. */
#ifdef __SSE2__
                    if (at >= 1 && at + 16 <= end) {
                        __m128i here = _mm_loadu_si128((const __m128i *)(data + at));
                        __m128i before = _mm_loadu_si128((const __m128i *)(data + at - 1));
                        unsigned same = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(here, before)), places = same;
                        for (int k = 1; k < MIN_RUN; k++) places &= same >> k;
                        if (!places) {
                            at += 17 - MIN_RUN;
                            continue;
                        }
                        at += (size_t)__builtin_ctz(places);
                    } else
#endif
                    if (at >= 1 && at + 8 <= end) {
                        uint64_t here, before;
                        memcpy(&here, data + at, 8);
                        memcpy(&before, data + at - 1, 8);
                        uint64_t places = zero_bytes(here ^ before);
                        for (int k = 1; k < MIN_RUN; k++) places &= places >> 8;
                        if (!places) {
                            at += 9 - MIN_RUN;
                            continue;
                        }
                        at += (size_t)__builtin_ctzll(places) >> 3;
                    }
                    size_t most = size - at < MAX_MATCH ? size - at : MAX_MATCH;
                    size_t length = at >= 1 && data[at] == data[at - 1] ? same_bytes(data + at, data + at - 1, most) : 0;
                    if (length < MIN_RUN) {
                        at++;
                        continue;
                    }
                    entries[count++] = (uint32_t)(at - span_start) << SPAN_SHIFT | (uint32_t)length;
                    at += length;
                    span_start = at;
                }
                if (span_start < at || count == 0) entries[count++] = (uint32_t)(at - span_start) << SPAN_SHIFT;
                block(&w, entries, count, data + start, at - start, last && at == size);
            }
            free(entries);
        }
    }
    if (!last) { /* an empty stored block ends the band on a byte boundary */
        put(&w, 0, 1);
        put(&w, 0, 2);
        align(&w);
        out[w.at++] = 0;
        out[w.at++] = 0;
        out[w.at++] = 0xFF;
        out[w.at++] = 0xFF;
    } else {
        align(&w);
    }
    return w.at;
}

/* The coder twice: as plain x86-64 code, and with BMI2's shifts (a shift by a register's count in
   one instruction: 9 % fewer instructions), taken where the CPU has them. Integer code either
   way: the same bytes (tested against each other). */
size_t iw_deflate_band_plain(const uint8_t *data, size_t size, int last, uint8_t *out) {
    pthread_once(&length_symbols_made, make_length_symbols);
    return deflate_band(data, size, last, out);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("bmi2"))) static size_t deflate_band_bmi2(const uint8_t *data, size_t size, int last,
                                                                 uint8_t *out) {
    return deflate_band(data, size, last, out);
}

static int has_bmi2;
static pthread_once_t cpu_checked = PTHREAD_ONCE_INIT;
static void check_cpu(void) {
    __builtin_cpu_init();
    has_bmi2 = __builtin_cpu_supports("bmi2") != 0;
}

int iw_deflate_uses_bmi2(void) {
    pthread_once(&cpu_checked, check_cpu);
    return has_bmi2;
}

size_t iw_deflate_band(const uint8_t *data, size_t size, int last, uint8_t *out) {
    if (!iw_deflate_uses_bmi2()) return iw_deflate_band_plain(data, size, last, out);
    pthread_once(&length_symbols_made, make_length_symbols);
    return deflate_band_bmi2(data, size, last, out);
}
#else
int iw_deflate_uses_bmi2(void) { return 0; }

size_t iw_deflate_band(const uint8_t *data, size_t size, int last, uint8_t *out) {
    return iw_deflate_band_plain(data, size, last, out);
}
#endif
