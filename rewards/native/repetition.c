/* The Phi-4 reward's repetition penalty, counting part: word hashes and n-gram counts.
 *
 * Loaded with ctypes by rewards/repetition_native.py, which builds it (`make native`) and falls
 * back to the numpy passes of rewards/repetition.py when it is missing. No allocation here: the
 * caller passes every work array. Portable C11, little-endian only (x86-64, aarch64).
 *
 * rep_word_hashes: the lowercase \w+ words of ASCII text (or UTF-8 prepared by the caller: see
 *   word_bits), hashed to 64 bits (a word of up to 8 bytes maps to a distinct value; longer words
 *   join their 8-byte pieces).
 * rep_ngram_counts: for the n-grams of those hashes, the highest count and the number of distinct
 *   n-grams seen more than max_count times, counting exactly only the n-grams that can matter.
 */
#include <stdint.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "rewards/native/repetition.c reads 8 bytes as a little-endian integer"
#endif

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#define GOLDEN 0x9E3779B97F4A7C15ULL /* odd: joins a long word's pieces; spreads keys over slots */
#define POLY 0x100000001B3ULL        /* odd: the n-gram keys' polynomial base */

static inline uint64_t mix64(uint64_t x) { /* splitmix64's finalizer: a bijection */
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

/* 8 bytes at text[pos..pos+8), zeros past n (a zero byte is not a word byte). */
static inline uint64_t load8(const uint8_t *text, int64_t n, int64_t pos) {
    uint64_t v = 0;
    if (pos + 8 <= n)
        memcpy(&v, text + pos, 8);
    else if (pos < n)
        memcpy(&v, text + pos, (size_t)(n - pos));
    return v;
}

/* High bit of each byte of x (all bytes < 0x80) that lies in [lo, hi]: no carry crosses a byte. */
static inline uint64_t in_range(uint64_t x, uint64_t lo, uint64_t hi) {
    return (x + (0x80 - lo) * ONES) & ~(x + (0x7F - hi) * ONES) & HIGHS;
}

/* High bit of each word byte: [0-9A-Za-z_], and every byte >= 0x80 (the caller passes UTF-8 in
 * which every non-ASCII character is a word character). */
static inline uint64_t word_bits(uint64_t x) {
    uint64_t low = x & (0x7F * ONES);
    uint64_t ascii = in_range(low | 0x20 * ONES, 'a', 'z') | in_range(low, '0', '9') | in_range(low, '_', '_');
    return (ascii & ~x) | (x & HIGHS);
}

/* 0x20 at each byte of x in [A-Z]: OR it in to lowercase them (other bytes unchanged). */
static inline uint64_t upper_bits(uint64_t x) { return (in_range(x & (0x7F * ONES), 'A', 'Z') & ~x) >> 2; }

/* Bit i = byte i's high bit, for the 8 bytes. */
static inline uint64_t pack8(uint64_t high_bits) { return ((high_bits >> 7) * 0x0102040810204080ULL) >> 56; }

/* The bytes of v (A-Z lowercased) before its first non-word byte, and whether v had none (the
 * word goes on). */
static inline uint64_t word_prefix(uint64_t v, int *goes_on) {
    uint64_t stops = ~word_bits(v) & HIGHS;
    *goes_on = stops == 0;
    uint64_t keep = stops ? ((stops & (0 - stops)) >> 7) - 1 : ~0ULL;
    return (v | upper_bits(v)) & keep;
}

/* text: n bytes, ASCII or UTF-8 whose non-ASCII characters are all word characters. out: room for
 * n / 2 + 1 hashes. Returns the number of words. */
int64_t rep_word_hashes(const uint8_t *text, int64_t n, uint64_t *out) {
    int64_t nw = 0;
    uint64_t carry = 0; /* whether the previous block's last byte was a word byte */
    for (int64_t base = 0; base < n; base += 64) {
        uint64_t words = 0;
        for (int j = 0; j < 8; j++) words |= pack8(word_bits(load8(text, n, base + 8 * j))) << (8 * j);
        uint64_t starts = words & ~((words << 1) | carry);
        carry = words >> 63;
        while (starts) {
            int64_t pos = base + __builtin_ctzll(starts);
            starts &= starts - 1;
            int goes_on;
            uint64_t h = word_prefix(load8(text, n, pos), &goes_on);
            if (goes_on) { /* 8 bytes or more: join the pieces (never equal to a short word but by chance) */
                h = mix64(h);
                do {
                    pos += 8;
                    h = (h ^ mix64(word_prefix(load8(text, n, pos), &goes_on))) * GOLDEN;
                } while (goes_on);
            }
            out[nw++] = h;
        }
    }
    for (int64_t i = 0; i < nw; i++) out[i] = mix64(out[i]);
    return nw;
}

static inline int bit_length(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* hashes: nw word hashes; ngram >= 1, nw >= ngram. Work arrays: keys (nw - ngram + 1), buckets
 * (1 << bucket_bits uint32; bucket_bits = max(4, bit_length(m) - 1) where m = nw - ngram + 1),
 * slot_keys and slot_counts (1 << max_slot_bits each).
 * Returns the highest count among the n-grams seen at least max(max_count, 2) times (or every
 * n-gram when max_count < 1), 0 when none is; *frequent: distinct n-grams seen more than
 * max_count times. Returns -1 when the slots are too few for the candidates, with *frequent the
 * max_slot_bits they need (call again with that many). */
int64_t rep_ngram_counts(const uint64_t *hashes, int64_t nw, int64_t ngram, int64_t max_count, uint64_t *keys,
                         uint32_t *buckets, int64_t bucket_bits, uint64_t *slot_keys, uint32_t *slot_counts,
                         int64_t max_slot_bits, int64_t *frequent) {
    const int64_t m = nw - ngram + 1;
    const uint64_t at_least = max_count >= 1 ? (uint64_t)(max_count > 2 ? max_count : 2) : 1;
    const uint64_t over = max_count >= 0 ? (uint64_t)max_count : 0;
    /* 1. every key, and how many keys fall in each bucket of their top bits */
    memset(buckets, 0, sizeof(uint32_t) << bucket_bits);
    for (int64_t i = 0; i < m; i++) {
        uint64_t key = hashes[i];
        for (int64_t j = 1; j < ngram; j++) key = key * POLY + hashes[i + j];
        keys[i] = key;
        buckets[(key * GOLDEN) >> (64 - bucket_bits)]++;
    }
    /* 2. only keys in buckets with at_least hits can be seen at_least times */
    uint64_t candidates = 0;
    for (int64_t b = 0; b < ((int64_t)1 << bucket_bits); b++)
        if (buckets[b] >= at_least) candidates += buckets[b];
    *frequent = 0;
    if (candidates == 0) return 0;
    int64_t slot_bits = bit_length(candidates) + 1; /* at most half full */
    if (slot_bits < 4) slot_bits = 4;
    if (slot_bits > max_slot_bits) {
        *frequent = slot_bits;
        return -1;
    }
    const uint64_t mask = ((uint64_t)1 << slot_bits) - 1;
    memset(slot_counts, 0, sizeof(uint32_t) << slot_bits);
    /* 3. count the candidates exactly (open addressing, linear probing) */
    uint64_t top = 0, n_frequent = 0;
    for (int64_t i = 0; i < m; i++) {
        uint64_t key = keys[i], spread = key * GOLDEN;
        if (buckets[spread >> (64 - bucket_bits)] < at_least) continue;
        uint64_t slot = (spread << bucket_bits) >> (64 - slot_bits);
        while (slot_counts[slot] && slot_keys[slot] != key) slot = (slot + 1) & mask;
        slot_keys[slot] = key;
        uint64_t count = ++slot_counts[slot];
        n_frequent += count == over + 1;
        if (count > top) top = count;
    }
    *frequent = (int64_t)n_frequent;
    return top >= at_least ? (int64_t)top : 0;
}
