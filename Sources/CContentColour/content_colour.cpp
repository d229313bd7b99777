#include "content_colour.h"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>
#include <qpdf/QPDFWriter.hh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace {

/// Copies `message` into the caller's buffer, cut to fit and always NUL-terminated.
void copyMessage(std::string const &message, char *error, size_t size) {
    if (!error || size == 0) return;
    size_t n = std::min(message.size(), size - 1);
    std::memcpy(error, message.data(), n);
    error[n] = 0;
}

using Token = QPDFTokenizer::Token;

/// A colour as the content stream set it, and whether the stream now holds DeviceGray 0 in its place.
struct Paint {
    bool rgb = false;
    double r = 0, g = 0, b = 0;
    bool replaced = false;
};

struct State {
    Paint fill, stroke;
    double lineWidth = 1;
    /// How much the CTM scales lengths (the square root of its determinant).
    double scale = 1;
};

/// Holds each operator's operands back until the operator is seen, so a colour can be set before
/// them: `0 g` between `(text)` and `Tj` would be read as two operands of `g`.
class BlackToGray : public QPDFObjectHandle::TokenFilter {
  public:
    explicit BlackToGray(content_black_rule rule) : rule(rule) {}

    void handleToken(Token const &token) override {
        switch (token.getType()) {
        case QPDFTokenizer::tt_word:
            operation(token);
            break;
        case QPDFTokenizer::tt_integer:
        case QPDFTokenizer::tt_real:
            numbers.push_back(std::atof(token.getValue().c_str()));
            pending.push_back(token);
            break;
        case QPDFTokenizer::tt_space:
        case QPDFTokenizer::tt_comment:
            pending.push_back(token);
            break;
        default:
            // An operand of another kind ends any run of numbers before it.
            numbers.clear();
            pending.push_back(token);
        }
    }

    void handleEOF() override { flush(); }

  private:
    content_black_rule rule;
    State state;
    std::vector<State> saved;
    std::vector<Token> pending;
    std::vector<double> numbers;

    bool black(Paint const &p) const {
        if (!p.rgb) return false;
        double hi = std::max({p.r, p.g, p.b}), lo = std::min({p.r, p.g, p.b});
        return hi <= rule.max_level && hi - lo <= rule.max_spread;
    }

    static std::string number(double v) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6g", v);
        return buffer;
    }

    static std::string rgb(Paint const &p, char const *op) {
        return number(p.r) + " " + number(p.g) + " " + number(p.b) + " " + op + " ";
    }

    void flush(std::string const &before = "") {
        if (!before.empty()) {
            // Apart from the operator before it, which a token filter writes with no space after.
            std::string const separated = " " + before;
            write(separated.data(), separated.size());
        }
        for (auto const &t : pending) writeToken(t);
        pending.clear();
    }

    void set(Paint &p, size_t count) {
        p = Paint();
        if (count == 3 && numbers.size() >= 3) {
            p.rgb = true;
            p.r = numbers[numbers.size() - 3];
            p.g = numbers[numbers.size() - 2];
            p.b = numbers[numbers.size() - 1];
        } else if (count == 1 && !numbers.empty()) {
            p.rgb = true;
            p.r = p.g = p.b = numbers.back();
        }
    }

    /// What must be set before painting with `p`: grey for a black that should be K only,
    /// the original colour back where the grey stands in for it but this painting is not black.
    static std::string use(Paint &p, bool asGray, char const *grayOp, char const *rgbOp) {
        if (asGray && !p.replaced) {
            p.replaced = true;
            return std::string("0 ") + grayOp + " ";
        }
        if (!asGray && p.replaced) {
            p.replaced = false;
            return rgb(p, rgbOp);
        }
        return "";
    }

    static bool buildsPath(std::string const &op) {
        return op == "m" || op == "l" || op == "c" || op == "v" || op == "y" || op == "h" || op == "re" || op == "W" ||
               op == "W*";
    }

    void operation(Token const &token) {
        std::string const op = token.getValue();
        if (buildsPath(op)) {
            // No colour may be set inside a path object: the whole path waits for its painting
            // operator, and a colour it needs goes before the path.
            numbers.clear();
            pending.push_back(token);
            return;
        }
        std::string before;
        bool const thin = state.lineWidth * state.scale <= rule.max_line_width;
        if (op == "q") {
            saved.push_back(state);
        } else if (op == "Q") {
            if (!saved.empty()) {
                state = saved.back();
                saved.pop_back();
            }
        } else if (op == "cm") {
            if (numbers.size() >= 6) {
                size_t n = numbers.size();
                double a = numbers[n - 6], b = numbers[n - 5], c = numbers[n - 4], d = numbers[n - 3];
                state.scale *= std::sqrt(std::fabs(a * d - b * c));
            }
        } else if (op == "w") {
            if (!numbers.empty()) state.lineWidth = numbers.back();
        } else if (op == "rg") {
            set(state.fill, 3);
        } else if (op == "g") {
            set(state.fill, 1);
        } else if (op == "k" || op == "sc" || op == "scn" || op == "cs") {
            set(state.fill, 0);
        } else if (op == "RG") {
            set(state.stroke, 3);
        } else if (op == "G") {
            set(state.stroke, 1);
        } else if (op == "K" || op == "SC" || op == "SCN" || op == "CS") {
            set(state.stroke, 0);
        } else if (op == "Tj" || op == "TJ" || op == "'" || op == "\"") {
            before = use(state.fill, black(state.fill), "g", "rg");
        } else if (op == "S" || op == "s") {
            before = use(state.stroke, thin && black(state.stroke), "G", "RG");
        } else if (op == "B" || op == "B*" || op == "b" || op == "b*") {
            before = use(state.fill, false, "g", "rg") + use(state.stroke, thin && black(state.stroke), "G", "RG");
        } else if (op == "f" || op == "F" || op == "f*" || op == "n" || op == "Do" || op == "BI" || op == "sh") {
            // Areas, pictures and forms (which inherit the colour) get the colour as it was set.
            before = use(state.fill, false, "g", "rg") + use(state.stroke, false, "G", "RG");
        }
        numbers.clear();
        flush(before);
        writeToken(token);
    }
};

/// Filters the content of every form XObject reachable from `resources`, each once.
void filterForms(QPDFObjectHandle resources, content_black_rule rule, std::set<QPDFObjGen> &seen) {
    if (!resources.isDictionary()) return;
    QPDFObjectHandle xobjects = resources.getKey("/XObject");
    if (!xobjects.isDictionary()) return;
    for (auto const &key : xobjects.getKeys()) {
        QPDFObjectHandle x = xobjects.getKey(key);
        if (!x.isStream() || !x.isIndirect() || !seen.insert(x.getObjGen()).second) continue;
        QPDFObjectHandle dict = x.getDict();
        if (!dict.getKey("/Subtype").isNameAndEquals("/Form")) continue;
        QPDFPageObjectHelper(x).addContentTokenFilter(std::make_shared<BlackToGray>(rule));
        filterForms(dict.getKey("/Resources"), rule, seen);
    }
}

} // namespace

extern "C" int content_black_to_gray(const char *input, const char *output, content_black_rule rule,
                                     char *error, size_t error_size) {
    try {
        QPDF pdf;
        pdf.setAttemptRecovery(false);
        pdf.processFile(input);
        std::set<QPDFObjGen> seen;
        for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
            page.addContentTokenFilter(std::make_shared<BlackToGray>(rule));
            filterForms(page.getAttribute("/Resources", false), rule, seen);
        }
        QPDFWriter writer(pdf, output);
        writer.setDeterministicID(true);
        writer.write();
        if (pdf.anyWarnings()) {
            copyMessage(std::string("qpdf warned while rewriting ") + input, error, error_size);
            return 1;
        }
        return 0;
    } catch (std::exception const &e) {
        copyMessage(e.what(), error, error_size);
        return 1;
    }
}

extern "C" int content_replace_pages(const char *input, const char *replacement, const int *pages, size_t count,
                                     const char *output, char *error, size_t error_size) {
    try {
        // Declared first, so it outlives the copy, whose streams are read from it when written.
        QPDF source;
        source.setAttemptRecovery(false);
        source.processFile(replacement);
        QPDF pdf;
        pdf.setAttemptRecovery(false);
        pdf.processFile(input);
        auto from = QPDFPageDocumentHelper(source).getAllPages();
        auto to = QPDFPageDocumentHelper(pdf).getAllPages();
        if (from.size() != count) {
            copyMessage(std::string(replacement) + " has " + std::to_string(from.size()) + " pages, not " +
                            std::to_string(count),
                        error, error_size);
            return 1;
        }
        for (size_t k = 0; k < count; k++) {
            if (pages[k] < 0 || size_t(pages[k]) >= to.size()) {
                copyMessage(std::string(input) + " has no page " + std::to_string(pages[k] + 1), error, error_size);
                return 1;
            }
            QPDFObjectHandle page = to[size_t(pages[k])].getObjectHandle();
            QPDFObjectHandle flat = from[k].getObjectHandle();
            for (char const *key : {"/Contents", "/Resources"}) {
                // qpdf copies only indirect objects between documents.
                QPDFObjectHandle value = flat.getKey(key);
                if (!value.isIndirect()) value = source.makeIndirectObject(value);
                page.replaceKey(key, pdf.copyForeignObject(value));
            }
            page.removeKey("/Group");
        }
        QPDFWriter writer(pdf, output);
        writer.setDeterministicID(true);
        writer.write();
        if (pdf.anyWarnings() || source.anyWarnings()) {
            copyMessage(std::string("qpdf warned while replacing pages of ") + input, error, error_size);
            return 1;
        }
        return 0;
    } catch (std::exception const &e) {
        copyMessage(e.what(), error, error_size);
        return 1;
    }
}
