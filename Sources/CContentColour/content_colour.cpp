#include "content_colour.h"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>
#include <qpdf/Pipeline.hh>
#include <qpdf/QPDFWriter.hh>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <memory>
#include <map>
#include <set>
#include <stdexcept>
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

/// `path` opened to be written from its start, created if missing. An existing file is emptied
/// only if it holds anything: truncating the fresh, empty temporary the caller made would have
/// ext4 write the whole file out when it is closed, on the export's time (fopen's "wb+" does that).
FILE *openForWriting(char const *path) {
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) throw std::runtime_error(std::string("cannot open ") + path + " for writing: " + std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || (st.st_size != 0 && ftruncate(fd, 0) != 0)) {
        int saved = errno;
        close(fd);
        throw std::runtime_error(std::string("cannot empty ") + path + ": " + std::strerror(saved));
    }
    FILE *file = fdopen(fd, "w+b");
    if (!file) {
        int saved = errno;
        close(fd);
        throw std::runtime_error(std::string("cannot open ") + path + " for writing: " + std::strerror(saved));
    }
    return file;
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
    /// With `convert`, every DeviceRGB colour is written as DeviceCMYK through it instead (black
    /// text and thin black rules still as DeviceGray 0).
    explicit BlackToGray(content_black_rule rule, content_cmyk_converter const *convert = nullptr)
        : rule(rule), convert(convert) {}

    void handleToken(Token const &token) override {
        switch (token.getType()) {
        case QPDFTokenizer::tt_word:
            operation(token);
            break;
        case QPDFTokenizer::tt_integer:
        case QPDFTokenizer::tt_real:
            if (numbers.empty()) operandsStart = pending.size();
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
    content_cmyk_converter const *convert;
    State state;
    /// Where in `pending` the run of numbers before the coming operator starts.
    size_t operandsStart = 0;
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

    /// The colour `p` set again, with `op` (rg or RG): as CMYK (k or K) when converting.
    std::string colour(Paint const &p, char const *op) const {
        if (!convert) return rgb(p, op);
        double cmyk[4];
        convert->colour(convert->context, p.r, p.g, p.b, cmyk);
        std::string out;
        for (double v : cmyk) out += number(std::round(v * 10000) / 10000) + " ";
        return out + (op[0] == 'r' ? "k " : "K ");
    }

    /// An `rg` or `RG` operator and its operands written as CMYK: what was pending before the
    /// operands goes out as it was.
    void setConverted(Paint const &p, char const *op) {
        for (size_t i = 0; i < operandsStart && i < pending.size(); i++) writeToken(pending[i]);
        pending.clear();
        std::string const text = " " + colour(p, op);
        write(text.data(), text.size());
        numbers.clear();
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
    std::string use(Paint &p, bool asGray, char const *grayOp, char const *rgbOp) const {
        if (asGray && !p.replaced) {
            p.replaced = true;
            return std::string("0 ") + grayOp + " ";
        }
        if (!asGray && p.replaced) {
            p.replaced = false;
            return colour(p, rgbOp);
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
            if (convert && state.fill.rgb) return setConverted(state.fill, "rg");
        } else if (op == "g") {
            set(state.fill, 1);
        } else if (op == "k" || op == "sc" || op == "scn" || op == "cs") {
            set(state.fill, 0);
        } else if (op == "RG") {
            set(state.stroke, 3);
            if (convert && state.stroke.rgb) return setConverted(state.stroke, "RG");
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
void filterForms(QPDFObjectHandle resources, content_black_rule rule, std::set<QPDFObjGen> &seen,
                 content_cmyk_converter const *convert = nullptr, std::vector<QPDFObjectHandle> *filtered = nullptr) {
    if (!resources.isDictionary()) return;
    QPDFObjectHandle xobjects = resources.getKey("/XObject");
    if (!xobjects.isDictionary()) return;
    for (auto const &key : xobjects.getKeys()) {
        QPDFObjectHandle x = xobjects.getKey(key);
        if (!x.isStream() || !x.isIndirect() || !seen.insert(x.getObjGen()).second) continue;
        QPDFObjectHandle dict = x.getDict();
        if (!dict.getKey("/Subtype").isNameAndEquals("/Form")) continue;
        QPDFPageObjectHelper(x).addContentTokenFilter(std::make_shared<BlackToGray>(rule, convert));
        if (filtered) filtered->push_back(x);
        filterForms(dict.getKey("/Resources"), rule, seen, convert, filtered);
    }
}

/// The glyph procedures of every Type 3 font reachable from `resources` (cairo's colour emoji and
/// bitmap glyphs), each filtered once, and the forms their own resources use.
void filterType3(QPDFObjectHandle resources, content_black_rule rule, std::set<QPDFObjGen> &seen,
                 content_cmyk_converter const *convert, std::vector<QPDFObjectHandle> *filtered = nullptr) {
    if (!resources.isDictionary()) return;
    QPDFObjectHandle fonts = resources.getKey("/Font");
    if (!fonts.isDictionary()) return;
    for (auto const &key : fonts.getKeys()) {
        QPDFObjectHandle font = fonts.getKey(key);
        if (!font.isDictionary() || !font.getKey("/Subtype").isNameAndEquals("/Type3")) continue;
        if (font.isIndirect() && !seen.insert(font.getObjGen()).second) continue;
        QPDFObjectHandle procs = font.getKey("/CharProcs");
        if (procs.isDictionary()) {
            for (auto const &glyph : procs.getKeys()) {
                QPDFObjectHandle proc = procs.getKey(glyph);
                if (!proc.isStream() || (proc.isIndirect() && !seen.insert(proc.getObjGen()).second)) continue;
                proc.addTokenFilter(std::make_shared<BlackToGray>(rule, convert));
                if (filtered) filtered->push_back(proc);
            }
        }
        filterForms(font.getKey("/Resources"), rule, seen, convert, filtered);
    }
}

/// Every 8-bit DeviceRGB image of the file (cairo's pictures that are not JPEGs passed through,
/// and the pictures inside Type 3 glyphs) as DeviceCMYK through `convert`, compressed again by
/// the writer. Interpolation goes too: PDF/X forbids it.
/// Whether a JPEG stream carries Adobe's APP14 marker before its first scan: its CMYK values
/// are then stored inverted, as Adobe writes them.
/// The first `limit` bytes of a stream's stored data, and no more: a pipeline that stops qpdf
/// reading once it has them, so a JPEG's header is looked at without reading its megabytes.
class Prefix : public Pipeline {
  public:
    explicit Prefix(size_t limit) : Pipeline("stream prefix", nullptr), limit(limit) {}
    void write(unsigned char const *data, size_t length) override {
        bytes.append(reinterpret_cast<char const *>(data), std::min(length, limit - bytes.size()));
        // qpdf catches it and stops reading; asked to, it records no warning.
        if (bytes.size() >= limit) throw std::runtime_error("enough");
    }
    void finish() override {}
    std::string bytes;
    size_t const limit;
};

/// Whether the JPEG `b` (`n` bytes) has Adobe's marker before its first scan: 1 yes, 0 no, -1
/// its markers run past `n`.
int adobeMarkerIn(unsigned char const *b, size_t n) {
    size_t at = 2;
    while (at + 4 <= n && b[at] == 0xFF) {
        unsigned char const marker = b[at + 1];
        if (marker == 0xDA) return 0;
        size_t const length = size_t(b[at + 2]) << 8 | b[at + 3];
        if (marker == 0xEE && length >= 7) {
            if (at + 9 > n) return -1;
            if (std::memcmp(b + at + 4, "Adobe", 5) == 0) return 1;
        }
        at += 2 + length;
    }
    return at + 4 > n ? -1 : 0;
}

bool hasAdobeMarker(QPDFObjectHandle image) {
    // The markers come first; a header longer than this (large ICC or Exif blocks) is read whole.
    Prefix prefix(1 << 16);
    bool const whole = image.pipeStreamData(&prefix, nullptr, 0, qpdf_dl_none, true, false);
    int const found = adobeMarkerIn(reinterpret_cast<unsigned char const *>(prefix.bytes.data()), prefix.bytes.size());
    if (found >= 0 || whole) return found == 1;
    auto data = image.getRawStreamData();
    return adobeMarkerIn(data->getBuffer(), data->getSize()) == 1;
}

/// An image `convertImages` changed: its dictionary only (`newData` false), or its data too.
struct ChangedImage {
    QPDFObjectHandle object;
    bool newData;
};

std::vector<ChangedImage> convertImages(QPDF &pdf, content_cmyk_converter const *convert) {
    std::vector<ChangedImage> changed;
    for (auto &object : pdf.getAllObjects()) {
        if (!object.isStream()) continue;
        QPDFObjectHandle dict = object.getDict();
        if (!dict.getKey("/Subtype").isNameAndEquals("/Image")) continue;
        // PDF/X forbids a reader's smoothing; a picture drawn for such a file says false already.
        bool touched = dict.getKey("/Interpolate").isBool() && dict.getKey("/Interpolate").getBoolValue();
        if (touched) dict.removeKey("/Interpolate");
        // cairo writes a CMYK JPEG with no /Decode: Adobe's inverted values need one.
        if (dict.getKey("/ColorSpace").isNameAndEquals("/DeviceCMYK") && dict.getKey("/Filter").isNameAndEquals("/DCTDecode") &&
            !dict.hasKey("/Decode") && hasAdobeMarker(object)) {
            dict.replaceKey("/Decode", QPDFObjectHandle::parse("[1 0 1 0 1 0 1 0]"));
            touched = true;
        }
        if (!dict.getKey("/ColorSpace").isNameAndEquals("/DeviceRGB")) {
            if (touched) changed.push_back({object, false});
            continue;
        }
        if (!dict.getKey("/BitsPerComponent").isInteger() || dict.getKey("/BitsPerComponent").getIntValue() != 8) {
            throw std::runtime_error("image " + object.unparse() + " is DeviceRGB at other than 8 bits a component");
        }
        auto data = object.getStreamData(qpdf_dl_all);
        size_t const pixels = data->getSize() / 3;
        std::string cmyk(pixels * 4, '\0');
        convert->pixels(convert->context, data->getBuffer(), reinterpret_cast<unsigned char *>(&cmyk[0]), pixels);
        object.replaceStreamData(cmyk, QPDFObjectHandle::newNull(), QPDFObjectHandle::newNull());
        dict.replaceKey("/ColorSpace", QPDFObjectHandle::newName("/DeviceCMYK"));
        dict.removeKey("/Decode");
        changed.push_back({object, true});
    }
    return changed;
}

/// Opens `path` for qpdf with a 64 KiB stdio buffer. qpdf reads a file through stdio, whose
/// buffer is the file system's block (4 KiB): a picture book's PDF took tens of thousands of read
/// calls, each pass. A seek inside the buffer costs no call; one outside it reads 64 KiB, which
/// costs little more than 4.
/// `buffer` (`readBuffer` bytes) must outlive `pdf`, which closes the file when it goes.
constexpr size_t readBuffer = 1 << 16;
void processBuffered(QPDF &pdf, const char *path, char *buffer) {
    FILE *file = std::fopen(path, "rb");
    if (file == nullptr) throw std::runtime_error(std::string("cannot open ") + path + ": " + std::strerror(errno));
    std::setvbuf(file, buffer, _IOFBF, readBuffer);
    pdf.processFile(path, file, true);
}

} // namespace

extern "C" int content_black_to_gray(const char *input, const char *output, content_black_rule rule,
                                     char *error, size_t error_size) {
    try {
        std::unique_ptr<char[]> buffer(new char[readBuffer]);
        QPDF pdf;
        pdf.setAttemptRecovery(false);
        processBuffered(pdf, input, buffer.get());
        std::set<QPDFObjGen> seen;
        for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
            page.addContentTokenFilter(std::make_shared<BlackToGray>(rule));
            filterForms(page.getAttribute("/Resources", false), rule, seen);
        }
        QPDFWriter writer(pdf, output, openForWriting(output), true);
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

extern "C" int content_convert_cmyk(const char *input, const char *output, content_black_rule rule,
                                    content_cmyk_converter convert, char *error, size_t error_size) {
    try {
        std::unique_ptr<char[]> buffer(new char[readBuffer]);
        QPDF pdf;
        pdf.setAttemptRecovery(false);
        processBuffered(pdf, input, buffer.get());
        std::set<QPDFObjGen> seen;
        for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
            page.addContentTokenFilter(std::make_shared<BlackToGray>(rule, &convert));
            QPDFObjectHandle resources = page.getAttribute("/Resources", false);
            filterForms(resources, rule, seen, &convert);
            filterType3(resources, rule, seen, &convert);
        }
        convertImages(pdf, &convert);
        QPDFWriter writer(pdf, output, openForWriting(output), true);
        // This file is finished once more (PDFFinisher), which derives the /ID from the content
        // it writes: a deterministic ID here would be an MD5 of every picture's bytes, for an
        // identifier no output keeps. A static one is the same every run without hashing.
        writer.setStaticID(true);
        writer.setObjectStreamMode(qpdf_o_disable);
        // PDF/X-1a:2001 is PDF 1.3; its finishing is appended to this file, header and all.
        writer.forcePDFVersion("1.3");
        writer.write();
        if (pdf.anyWarnings()) {
            copyMessage(std::string("qpdf warned while converting ") + input + " to CMYK", error, error_size);
            return 1;
        }
        return 0;
    } catch (std::exception const &e) {
        copyMessage(e.what(), error, error_size);
        return 1;
    }
}


namespace {

/// The body of a stream whose new dictionary is `dict` and data `data`, as it follows "n 0 obj".
void appendStream(std::string &out, QPDFObjectHandle dict, unsigned char const *data, size_t size) {
    dict.replaceKey("/Length", QPDFObjectHandle::newInteger(static_cast<long long>(size)));
    out += dict.unparse();
    out += "\nstream\n";
    out.append(reinterpret_cast<char const *>(data), size);
    out += "\nendstream";
}

/// `data` compressed for a FlateDecode stream, as the new data of `object` in `out`.
void appendCompressed(std::string &out, QPDFObjectHandle object, unsigned char const *data, size_t size, int level) {
    unsigned char *compressed = nullptr;
    size_t compressedSize = 0;
    char message[256];
    if (content_compress(data, size, level, &compressed, &compressedSize, message, sizeof message) != 0) {
        throw std::runtime_error(message);
    }
    std::unique_ptr<unsigned char, decltype(&std::free)> owned(compressed, &std::free);
    QPDFObjectHandle dict = object.getDict().shallowCopy();
    dict.replaceKey("/Filter", QPDFObjectHandle::newName("/FlateDecode"));
    dict.removeKey("/DecodeParms");
    appendStream(out, dict, compressed, compressedSize);
}

/// The stored length of a stream, from its dictionary (0 when it does not say).
long long storedLength(QPDFObjectHandle stream) {
    QPDFObjectHandle length = stream.getDict().getKey("/Length");
    return length.isInteger() ? length.getIntValue() : 0;
}

} // namespace

extern "C" int content_cmyk_changed_objects(const char *path, content_black_rule rule, content_cmyk_converter convert,
                                            double most_superseded, int level, content_take_object take, void *context,
                                            char *error, size_t error_size) {
    try {
        std::unique_ptr<char[]> buffer(new char[readBuffer]);
        QPDF pdf;
        pdf.setAttemptRecovery(false);
        processBuffered(pdf, path, buffer.get());
        // PDF/X-1a is PDF 1.3: no cross-reference streams or object streams, which only a rewrite removes.
        QPDFObjectHandle trailer = pdf.getTrailer();
        if (trailer.hasKey("/XRefStm") || trailer.getKey("/Type").isNameAndEquals("/XRef")) return 2;
        for (auto const &entry : pdf.getXRefTable()) {
            // An update's cross-reference here says generation 0, which is all cairo writes.
            if (entry.second.getType() == 2 || entry.first.getGen() != 0) return 2;
        }
        std::vector<QPDFObjectHandle> filtered;
        std::set<QPDFObjGen> seen;
        for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
            QPDFObjectHandle contents = page.getObjectHandle().getKey("/Contents");
            // Several streams would be joined into a new one; an update only replaces objects.
            if (!contents.isStream() || !contents.isIndirect()) return 2;
            if (seen.insert(contents.getObjGen()).second) {
                contents.addTokenFilter(std::make_shared<BlackToGray>(rule, &convert));
                filtered.push_back(contents);
            }
            QPDFObjectHandle resources = page.getAttribute("/Resources", false);
            filterForms(resources, rule, seen, &convert, &filtered);
            filterType3(resources, rule, seen, &convert, &filtered);
        }
        struct stat st;
        if (stat(path, &st) != 0) throw std::runtime_error(std::string("cannot read ") + path + ": " + std::strerror(errno));
        // What an update leaves in the file (the versions it replaces), against what a rewrite
        // costs (the whole file): checked before the pictures are converted, and after.
        double const most = most_superseded * double(st.st_size);
        long long superseded = 0;
        for (auto const &stream : filtered) superseded += storedLength(stream);
        if (double(superseded) > most) return 2;
        std::vector<ChangedImage> images = convertImages(pdf, &convert);
        for (auto const &image : images) superseded += storedLength(image.object);
        if (double(superseded) > most) return 2;

        std::map<QPDFObjGen, std::string> objects;
        for (auto &stream : filtered) {
            if (!stream.isIndirect()) return 2;
            auto data = stream.getStreamData(qpdf_dl_generalized);
            std::string &out = objects[stream.getObjGen()];
            appendCompressed(out, stream, data->getBuffer(), data->getSize(), level);
        }
        for (auto &image : images) {
            if (!image.object.isIndirect()) return 2;
            auto data = image.object.getRawStreamData();
            std::string &out = objects[image.object.getObjGen()];
            if (image.newData) {
                appendCompressed(out, image.object, data->getBuffer(), data->getSize(), level);
            } else {
                appendStream(out, image.object.getDict().shallowCopy(), data->getBuffer(), data->getSize());
            }
        }
        if (pdf.anyWarnings()) {
            copyMessage(std::string("qpdf warned while converting ") + path + " to CMYK", error, error_size);
            return 1;
        }

        for (auto const &object : objects) {
            take(context, object.first.getObj(), reinterpret_cast<unsigned char const *>(object.second.data()), object.second.size());
        }
        return 0;
    } catch (std::exception const &e) {
        copyMessage(e.what(), error, error_size);
        return 1;
    }
}
