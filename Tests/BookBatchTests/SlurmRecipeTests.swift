import Foundation
import Testing
import BookTestSupport

/// docs/batch.md's Slurm recipe on a real single-node Slurm (`scripts/slurm-test.sh`). It starts
/// daemons as root, so it runs only when asked: `BOOKRENDER_SLURM_TEST=1` (CI sets it).
@Suite struct SlurmRecipeTests {
    static let enabled = ProcessInfo.processInfo.environment["BOOKRENDER_SLURM_TEST"] == "1"

    @Test(.enabled(if: enabled, "set BOOKRENDER_SLURM_TEST=1 to run the Slurm recipe on a single-node Slurm"))
    func theDocumentedRecipeRendersEveryBookOnceOnARealSlurm() throws {
        let script = Repository.root.appendingPathComponent("scripts/slurm-test.sh").path
        let r = try run("/bin/bash", [script], environment: ProcessInfo.processInfo.environment.merging(
            ["BOOKRENDER_BIN": try Repository.binary.path]) { $1 })
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("slurm-test: passed"), "\(r.stderr)")
    }
}
