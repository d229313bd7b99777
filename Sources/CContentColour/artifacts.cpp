#include "content_colour.h"
#include "error_message.hpp"

#include <qpdf/Pl_Flate.hh>
#include <qpdf/Pl_String.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using content_stream::copyMessage;

using Token = QPDFTokenizer::Token;

/// Marks as `/Artifact` every graphics object that paints outside both structure content (a
/// sequence with an MCID) and artifacts. A sequence without an MCID, such as the ActualText span
/// that hides a placeholder's caption from the text layer, counts as neither: PDF/UA
/// asks for all content to be either tagged or an artifact, and cairo 1.16 can write only tags.
/// Operands are held until their operator is seen, so the `BMC` goes before the operands of the
/// operator it wraps; a path is held whole until its painting operator, since a path ended by
/// `n` (a clip) paints nothing and stays unmarked. Marked content never straddles BT, ET or a path.
class MarkArtifacts : public QPDFObjectHandle::TokenFilter {
  public:
    void handleToken(Token const &token) override {
        if (inlineImage) {
            writeToken(token);
            if (token.getType() == QPDFTokenizer::tt_inline_image) {
                // qpdf's inline image token runs to its EI.
                close();
                inlineImage = false;
            }
            return;
        }
        if (token.getType() == QPDFTokenizer::tt_word) {
            operation(token);
        } else {
            pending.push_back(token);
        }
    }

    void handleEOF() override {
        flush(pending);
        flush(path);
    }

  private:
    /// The open marked-content sequences, each with whether it is structure or artifact content.
    std::vector<bool> sequences;
    /// How many of them are.
    int depth = 0;
    bool inlineImage = false;
    std::vector<Token> pending;
    /// A path object at depth 0 waiting for its painting operator.
    std::vector<Token> path;

    void flush(std::vector<Token> &tokens) {
        for (auto const &t : tokens) writeToken(t);
        tokens.clear();
    }

    void open() { writeText("\n/Artifact BMC\n"); }
    void close() { writeText("\nEMC\n"); }
    void writeText(char const *text) { write(text, std::strlen(text)); }

    static bool buildsPath(std::string const &op) {
        return op == "m" || op == "l" || op == "c" || op == "v" || op == "y" || op == "h" || op == "re" || op == "W" ||
               op == "W*";
    }

    static bool paintsPath(std::string const &op) {
        return op == "S" || op == "s" || op == "f" || op == "F" || op == "f*" || op == "B" || op == "B*" ||
               op == "b" || op == "b*";
    }

    static bool paintsAlone(std::string const &op) {
        return op == "Do" || op == "sh" || op == "Tj" || op == "TJ" || op == "'" || op == "\"";
    }

    void operation(Token const &token) {
        std::string const op = token.getValue();
        if (depth == 0 && (buildsPath(op) || !path.empty())) {
            if (buildsPath(op)) {
                path.insert(path.end(), pending.begin(), pending.end());
                pending.clear();
                path.push_back(token);
                return;
            }
            bool const painted = paintsPath(op);
            if (painted) open();
            flush(path);
            flush(pending);
            writeToken(token);
            if (painted) close();
            return;
        }
        if (depth == 0 && paintsAlone(op)) {
            open();
            flush(pending);
            writeToken(token);
            close();
            return;
        }
        if (depth == 0 && op == "BI") {
            open();
            inlineImage = true;
        }
        if (op == "BMC" || op == "BDC") {
            bool marks = false;
            for (auto const &t : pending) {
                if (t.getType() == QPDFTokenizer::tt_name && (t.getValue() == "/MCID" || t.getValue() == "/Artifact")) marks = true;
            }
            sequences.push_back(marks);
            if (marks) depth++;
        } else if (op == "EMC" && !sequences.empty()) {
            if (sequences.back()) depth--;
            sequences.pop_back();
        }
        flush(pending);
        writeToken(token);
    }
};

} // namespace

extern "C" int content_mark_artifacts(const char *input, content_page_sink sink, void *context, char *error,
                                      size_t error_size) {
    try {
        QPDF pdf;
        pdf.setAttemptRecovery(false);
        pdf.processFile(input);
        size_t index = 0;
        for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
            std::string bytes;
            Pl_String out("artifacts", nullptr, bytes);
            Pl_Flate flate("artifacts", &out, Pl_Flate::a_deflate);
            MarkArtifacts filter;
            page.filterContents(&filter, &flate);
            if (sink(context, index, reinterpret_cast<unsigned char const *>(bytes.data()), bytes.size()) != 0) {
                copyMessage(std::string("page ") + std::to_string(index + 1) + " of " + input + " could not be kept",
                            error, error_size);
                return 1;
            }
            index++;
        }
        if (pdf.anyWarnings()) {
            copyMessage(std::string("qpdf warned while reading the pages of ") + input, error, error_size);
            return 1;
        }
        return 0;
    } catch (std::exception const &e) {
        copyMessage(e.what(), error, error_size);
        return 1;
    }
}
