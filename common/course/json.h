// A small, strict JSON reader (RFC 8259), for reading back the reports the
// course's programs print with --format json (course-chart draws them).
//
// Strict on purpose: a chart drawn from a half-written or hand-edited file
// would put wrong numbers on a slide, so anything RFC 8259 does not allow is
// an error with its line and column (trailing commas, comments, NaN, leading
// zeros, control characters in strings, invalid UTF-8, lone surrogates,
// duplicate keys, anything after the value). Depth is limited, so that no
// input can overflow the stack.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace course {

struct JsonError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Json {
    enum class Type { null, boolean, number, string, array, object };

    Type type = Type::null;
    bool boolean = false;
    double number = 0;
    std::string string;  // UTF-8
    std::vector<Json> array;
    std::vector<std::pair<std::string, Json>> object;  // in the file's order; keys are unique

    // The member named `key` of an object, or nullptr (also for a non-object).
    const Json* find(const std::string& key) const;
};

// "null", "a boolean", "a number", "a string", "an array", "an object".
const char* json_type_name(Json::Type type);

// Parses one JSON text; throws JsonError "line L, column C: what is wrong".
Json parse_json(const std::string& text);

}  // namespace course
