#include "iw_json.h"

#include <simdjson.h>

#include <cstdio>
#include <new>
#include <vector>

struct iw_json_reader {
    simdjson::dom::parser parser;
    std::vector<iw_json_node> nodes;
};

namespace {
// A key's fingerprint, as iw_json.h says.
uint64_t fingerprint(std::string_view key) {
    uint64_t print = key.size() < 255 ? key.size() : 255;
    for (size_t i = 0; i < key.size() && i < 7; i++) print |= static_cast<uint64_t>(static_cast<uint8_t>(key[i])) << (8 * (i + 1));
    return print;
}

// The nodes of `value` and everything in it, appended in document order.
void flatten(simdjson::dom::element value, std::vector<iw_json_node> &nodes) {
    size_t at = nodes.size();
    nodes.push_back(iw_json_node{});
    iw_json_node node{};
    switch (value.type()) {
    case simdjson::dom::element_type::NULL_VALUE: node.kind = IW_JSON_NULL; break;
    case simdjson::dom::element_type::BOOL: node.kind = value.get_bool().value_unsafe() ? IW_JSON_TRUE : IW_JSON_FALSE; break;
    case simdjson::dom::element_type::INT64:
        node.kind = IW_JSON_INTEGER;
        node.integer = value.get_int64().value_unsafe();
        break;
    case simdjson::dom::element_type::UINT64:
        node.kind = IW_JSON_UNSIGNED;
        node.unsigned_integer = value.get_uint64().value_unsafe();
        break;
    case simdjson::dom::element_type::DOUBLE:
        node.kind = IW_JSON_NUMBER;
        node.number = value.get_double().value_unsafe();
        break;
    case simdjson::dom::element_type::STRING: {
        std::string_view text = value.get_string().value_unsafe();
        node.kind = IW_JSON_STRING;
        node.text = text.data();
        node.length = text.size();
        break;
    }
    case simdjson::dom::element_type::ARRAY:
        node.kind = IW_JSON_ARRAY;
        for (simdjson::dom::element item : value.get_array().value_unsafe()) {
            flatten(item, nodes);
            node.length++;
        }
        break;
    case simdjson::dom::element_type::OBJECT:
        node.kind = IW_JSON_OBJECT;
        for (simdjson::dom::key_value_pair member : value.get_object().value_unsafe()) {
            iw_json_node key{};
            key.kind = IW_JSON_STRING;
            key.end = static_cast<uint32_t>(nodes.size() + 1);
            key.text = member.key.data();
            key.length = member.key.size();
            key.unsigned_integer = fingerprint(member.key);
            nodes.push_back(key);
            flatten(member.value, nodes);
            node.length++;
        }
        break;
    }
    node.end = static_cast<uint32_t>(nodes.size());
    nodes[at] = node;
}
}  // namespace

extern "C" iw_json_reader *iw_json_reader_new(void) { return new (std::nothrow) iw_json_reader(); }

extern "C" void iw_json_reader_free(iw_json_reader *reader) { delete reader; }

extern "C" int iw_json_parse(iw_json_reader *reader, const char *bytes, size_t length, const iw_json_node **nodes,
                             size_t *count, char *message, size_t message_size) {
    *nodes = nullptr;
    *count = 0;
    try {
        simdjson::dom::element root;
        simdjson::error_code error = reader->parser.parse(bytes, length).get(root);
        if (error) {
            std::snprintf(message, message_size, "%s", simdjson::error_message(error));
            return 1;
        }
        reader->nodes.clear();
        flatten(root, reader->nodes);
        if (reader->nodes.size() > UINT32_MAX) {
            std::snprintf(message, message_size, "too many values in one text");
            return 1;
        }
    } catch (const std::bad_alloc &) {
        std::snprintf(message, message_size, "out of memory");
        return 1;
    }
    *nodes = reader->nodes.data();
    *count = reader->nodes.size();
    return 0;
}
