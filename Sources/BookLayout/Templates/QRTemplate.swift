import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: QRPage) -> any PageTemplate { QRTemplate(qr: page) }
}

/// A QR page: the code centred with a four-module quiet zone, the caption under it, the address below.
struct QRTemplate: PageTemplate {
    let qr: QRPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let index = ctx.addPage(.qr, source: page.index)
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let url = qr.url ?? ""
        let typo = ctx.tokens.typography
        guard let code = QRCode(encoding: url) else {
            ctx.findings.append(Finding(.error, .other, sourcePage: page.index, physicalPages: [ctx.pages[index].number],
                                        "cannot encode \"\(url)\" as a QR code (too long?)"))
            return
        }
        let side = min(content.width, content.height) * 0.55
        let module = side / Double(code.size + 8)
        let symbol = Double(code.size) * module
        let top = content.y + content.height * 0.18
        let frame = Rect(x: content.x + (content.width - symbol) / 2, y: top + 4 * module, width: symbol, height: symbol)
        // The quiet zone is paper white whatever the theme's paper, so scanners find the code's edge.
        ctx.append(.fill(Fill(rect: frame.inset(by: -4 * module), color: .white, cornerRadius: module)), to: index)
        ctx.append(.qr(QRBox(frame: frame, size: code.size, modules: code.modules, color: ctx.palette.ink)), to: index)
        var y = frame.maxY + 4 * module + typo.body.size * 1.5
        if let caption = qr.caption, !caption.isEmpty {
            let c = ctx.setText(caption, role: typo.body, width: content.width, alignment: .center)
            ctx.append(.text(ctx.textBox(c, x: content.x, y: y, width: content.width)), to: index)
            y += c.height + typo.body.size * 0.6
        }
        let u = ctx.setText(url, role: typo.caption, width: content.width, alignment: .center)
        ctx.append(.text(ctx.textBox(u, x: content.x, y: y, width: content.width, color: ctx.palette.muted)), to: index)
        ctx.addFolio(to: index)
    }
}
