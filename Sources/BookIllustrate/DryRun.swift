import Foundation

/// `--dry-run`: what each call would send and cost, with no call and no file written.
enum DryRun {
    static func print(plan: IllustrationPlan, context: JobContext) async {
        let out = context.options.output
        var total = 0.0
        var unpriced = 0
        let hasCharacter = await context.book.mainCharacterImage() != nil || plan.character != nil
        let firstExists = plan.firstPageIndex.map { _ in true } ?? false
        for job in plan.all {
            var request = await context.request(for: job)
            // Pictures this run would make first are not there yet: describe them instead.
            var pending: [String] = []
            if job.kind != .character {
                if hasCharacter, !request.references.contains(where: { $0.role == .mainCharacter }) {
                    pending.append("main character: the picture generated first")
                }
                if firstExists, let f = plan.firstPageJob, f != job.key, job.kind == .page,
                   !request.references.contains(where: { $0.role == .style }) {
                    pending.append("style (first page): page \(plan.firstPageIndex! + 1) once generated")
                }
                request.prompt = context.builder.prompt(for: job, hasCharacterReference: hasCharacter,
                                                        hasStyleReference: request.references.contains { $0.role == .style } || pending.contains { $0.hasPrefix("style") })
            }
            let provider = context.maker(for: job)
            let cost = provider.estimatedCost(request)
            if let cost { total += cost } else { unpriced += 1 }
            out("== \(job.label) (\(job.key)): \(provider.name) \(provider.model), \(provider.sizeKey(for: request))\(context.isDraft(job) ? " (draft)" : ""), "
                + (cost.map { String(format: "about $%.3f", $0) } ?? "price unknown"))
            out("references:")
            if request.references.isEmpty && pending.isEmpty { out("  (none)") }
            for r in request.references { out("  \(r.role.rawValue): \(r.origin) (\(r.mimeType), \(r.data.count) bytes)") }
            for p in pending { out("  \(p)") }
            out("prompt:")
            out(request.prompt.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
            out("")
        }
        for s in plan.skipped { out("== \(s.label) (\(s.key)): left for later by --max-images") }
        out(String(format: "%d call(s), estimated $%.2f", plan.all.count, total)
            + (unpriced > 0 ? " plus \(unpriced) without a known price" : "") + "; nothing was sent")
    }
}
