import Foundation
import BookBase

/// What exports killed with the service (SIGKILL, a crash of the machine) left in a job's folder:
/// the hidden `.NAME.partial-PID-N` files and staging folders beside its outputs, and its scratch.
/// Removed when the service starts, as `bookrender batch` does before each job.
enum JobLeftovers {
    static func remove(in folder: JobFolder) {
        TemporaryFiles.Leftovers.removeStale(writing: folder.outputs)
        // No export runs before the service starts one: all the scratch there is left over.
        try? FileManager.default.removeItem(at: folder.scratch)
    }
}
