#include "course/json.h"

#include <charconv>
#include <cstdint>

namespace course {

namespace {

// Nesting deeper than this is refused: the course's reports nest four deep.
constexpr int max_depth = 64;

class Parser {
public:
    explicit Parser(const std::string& text) : text_(text) {}

    Json document() {
        Json value = parse_value(0);
        skip_space();
        if (pos_ < text_.size()) fail("unexpected text after the JSON value");
        return value;
    }

private:
    const std::string& text_;
    std::size_t pos_ = 0;

    [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }

    [[noreturn]] void fail_at(std::size_t at, const std::string& what) const {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < at && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw JsonError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what);
    }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }

    void skip_space() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }

    void expect_end_not_reached(const char* inside) {
        if (at_end()) fail(std::string("unexpected end of input in ") + inside);
    }

    Json parse_value(int depth) {
        skip_space();
        expect_end_not_reached("a value");
        if (depth >= max_depth) fail("nested more than " + std::to_string(max_depth) + " deep");
        const char c = peek();
        if (c == '{') return parse_object(depth);
        if (c == '[') return parse_array(depth);
        if (c == '"') {
            Json value;
            value.type = Json::Type::string;
            value.string = parse_string();
            return value;
        }
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
        Json value;
        if (literal("true")) {
            value.type = Json::Type::boolean;
            value.boolean = true;
        } else if (literal("false")) {
            value.type = Json::Type::boolean;
        } else if (!literal("null")) {
            fail(std::string("expected a value, found '") + c + "'");
        }
        return value;
    }

    bool literal(const char* word) {
        const std::string w = word;
        if (text_.compare(pos_, w.size(), w) != 0) return false;
        pos_ += w.size();
        return true;
    }

    Json parse_object(int depth) {
        Json value;
        value.type = Json::Type::object;
        ++pos_;  // '{'
        skip_space();
        expect_end_not_reached("an object");
        if (peek() == '}') {
            ++pos_;
            return value;
        }
        while (true) {
            skip_space();
            expect_end_not_reached("an object");
            if (peek() != '"') fail("expected a string as the object's key");
            const std::size_t key_at = pos_;
            std::string key = parse_string();
            if (value.find(key) != nullptr) fail_at(key_at, "duplicate key \"" + key + "\"");
            skip_space();
            expect_end_not_reached("an object");
            if (peek() != ':') fail("expected ':' after the key \"" + key + "\"");
            ++pos_;
            Json member = parse_value(depth + 1);
            value.object.emplace_back(std::move(key), std::move(member));
            skip_space();
            expect_end_not_reached("an object");
            if (peek() == '}') {
                ++pos_;
                return value;
            }
            if (peek() != ',') fail("expected ',' or '}' in an object");
            ++pos_;
        }
    }

    Json parse_array(int depth) {
        Json value;
        value.type = Json::Type::array;
        ++pos_;  // '['
        skip_space();
        expect_end_not_reached("an array");
        if (peek() == ']') {
            ++pos_;
            return value;
        }
        while (true) {
            value.array.push_back(parse_value(depth + 1));
            skip_space();
            expect_end_not_reached("an array");
            if (peek() == ']') {
                ++pos_;
                return value;
            }
            if (peek() != ',') fail("expected ',' or ']' in an array");
            ++pos_;
        }
    }

    // The grammar is checked here; std::from_chars converts, whatever the locale.
    Json parse_number() {
        const std::size_t start = pos_;
        auto digits = [&]() {
            const std::size_t from = pos_;
            while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
            return pos_ - from;
        };
        // A number cut short is a truncated file, and says so.
        auto need_digit = [&](const char* where) {
            if (at_end()) fail("unexpected end of input in a number");
            if (peek() < '0' || peek() > '9') fail(std::string("expected a digit") + where);
        };
        if (peek() == '-') ++pos_;
        need_digit("");
        if (peek() == '0') {
            ++pos_;
            if (!at_end() && peek() >= '0' && peek() <= '9') fail("a number may not start with 0");
        } else {
            digits();
        }
        if (!at_end() && peek() == '.') {
            ++pos_;
            need_digit(" after the decimal point");
            digits();
        }
        if (!at_end() && (peek() == 'e' || peek() == 'E')) {
            ++pos_;
            if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
            need_digit(" in the exponent");
            digits();
        }
        Json value;
        value.type = Json::Type::number;
        const auto [end, error] = std::from_chars(text_.data() + start, text_.data() + pos_, value.number);
        if (error != std::errc() || end != text_.data() + pos_) fail_at(start, "number out of range");
        return value;
    }

    unsigned hex4() {
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
            if (at_end()) fail("unexpected end of input in a \\u escape");
            const char c = peek();
            unsigned digit;
            if (c >= '0' && c <= '9') {
                digit = c - '0';
            } else if (c >= 'a' && c <= 'f') {
                digit = c - 'a' + 10;
            } else if (c >= 'A' && c <= 'F') {
                digit = c - 'A' + 10;
            } else {
                fail("expected 4 hex digits after \\u");
            }
            code = code * 16 + digit;
            ++pos_;
        }
        return code;
    }

    static void append_utf8(std::string& out, unsigned code) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    // One UTF-8 sequence, copied as it is; overlong forms, surrogates and
    // code points past U+10FFFF are refused (they would make the SVG invalid).
    void copy_utf8(std::string& out) {
        const auto lead = static_cast<unsigned char>(peek());
        int length;
        unsigned code, minimum;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2, code = lead & 0x1F, minimum = 0x80;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3, code = lead & 0x0F, minimum = 0x800;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4, code = lead & 0x07, minimum = 0x10000;
        } else {
            fail("invalid UTF-8 in a string");
        }
        for (int i = 1; i < length; ++i) {
            if (pos_ + i >= text_.size()) fail("invalid UTF-8 in a string");
            const auto next = static_cast<unsigned char>(text_[pos_ + i]);
            if ((next & 0xC0) != 0x80) fail("invalid UTF-8 in a string");
            code = (code << 6) | (next & 0x3F);
        }
        if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) fail("invalid UTF-8 in a string");
        out.append(text_, pos_, length);
        pos_ += length;
    }

    std::string parse_string() {
        ++pos_;  // '"'
        std::string out;
        while (true) {
            if (at_end()) fail("unexpected end of input in a string");
            const char c = peek();
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string (write it as an escape)");
            if (static_cast<unsigned char>(c) >= 0x80) {
                copy_utf8(out);
                continue;
            }
            ++pos_;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (at_end()) fail("unexpected end of input in a string");
            const char e = peek();
            ++pos_;
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned code = hex4();
                if (code >= 0xDC00 && code <= 0xDFFF) fail("a \\u escape with a lone low surrogate");
                if (code >= 0xD800 && code <= 0xDBFF) {
                    if (!literal("\\u")) fail("a \\u escape with a high surrogate must be followed by a low one");
                    const unsigned low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                        fail("a \\u escape with a high surrogate must be followed by a low one");
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                append_utf8(out, code);
                break;
            }
            default: pos_ -= 2; fail(std::string("invalid escape \\") + e + " in a string");
            }
        }
    }
};

}  // namespace

const Json* Json::find(const std::string& key) const {
    for (const auto& [name, value] : object)
        if (name == key) return &value;
    return nullptr;
}

const char* json_type_name(Json::Type type) {
    switch (type) {
    case Json::Type::null: return "null";
    case Json::Type::boolean: return "a boolean";
    case Json::Type::number: return "a number";
    case Json::Type::string: return "a string";
    case Json::Type::array: return "an array";
    case Json::Type::object: return "an object";
    }
    return "?";
}

Json parse_json(const std::string& text) { return Parser(text).document(); }

}  // namespace course
