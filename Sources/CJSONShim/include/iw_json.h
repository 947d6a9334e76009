#ifndef IW_JSON_H
#define IW_JSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a node holds.
typedef enum {
    IW_JSON_NULL,
    IW_JSON_FALSE,
    IW_JSON_TRUE,
    IW_JSON_INTEGER,  ///< `integer`
    IW_JSON_UNSIGNED, ///< `unsigned_integer`: a whole number above INT64_MAX
    IW_JSON_NUMBER,   ///< `number`: a number with a fraction or exponent
    IW_JSON_STRING,   ///< `text`, `length` bytes of UTF-8, escapes resolved
    IW_JSON_ARRAY,    ///< `length` values follow
    IW_JSON_OBJECT,   ///< `length` members follow, each a key (a string node) and its value
} iw_json_kind;

/// One JSON value in document order: a container's members follow it, and `end` is the index
/// of the node after the value and everything in it. A member's key is a string node whose
/// `unsigned_integer` is its fingerprint: the length (at most 255) in the low byte, then its
/// first seven bytes, the first lowest.
typedef struct {
    iw_json_kind kind;
    uint32_t end;
    union {
        int64_t integer;
        uint64_t unsigned_integer;
        double number;
    };
    const char *text;
    size_t length;
} iw_json_node;

/// A JSON parser (simdjson's) with the nodes of the last text it parsed.
typedef struct iw_json_reader iw_json_reader;

iw_json_reader *iw_json_reader_new(void);
void iw_json_reader_free(iw_json_reader *reader);

/// Parses `length` bytes of JSON. On success returns 0 and sets `nodes` and `count` to the
/// document's nodes, valid until the next parse or the reader is freed; else writes why into
/// `message` and returns 1.
int iw_json_parse(iw_json_reader *reader, const char *bytes, size_t length, const iw_json_node **nodes, size_t *count,
                  char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
