/// Which part of the job list this run takes: `k` of `n` (1-based). Job i goes to shard
/// `i mod n + 1`, so the split depends only on the manifest order, never on the machine, and
/// interleaving spreads big and small books evenly when a manifest is sorted by size or kind.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public var k: Int
    public var n: Int

    public static let all = Shard(k: 1, n: 1)

    public init(k: Int, n: Int) { self.k = k; self.n = n }

    /// "2/3".
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            throw BatchError("--shard takes K/N with 1 ≤ K ≤ N, e.g. 2/3 (got \"\(text)\")")
        }
        self.init(k: k, n: n)
    }

    /// `--shards N` on a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, 0-based) or a Slurm array
    /// (SLURM_ARRAY_TASK_ID, taken as 0-based: submit with --array=0-(N-1)).
    public init(count n: Int, environment: [String: String]) throws {
        guard n >= 1 else { throw BatchError("--shards must be at least 1") }
        let names = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]
        guard let name = names.first(where: { environment[$0] != nil }), let raw = environment[name] else {
            throw BatchError("--shards needs JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array) in the environment")
        }
        guard let index = Int(raw), (0..<n).contains(index) else {
            throw BatchError("\(name)=\(raw) is not an index from 0 to \(n - 1)")
        }
        self.init(k: index + 1, n: n)
    }

    public func contains(_ job: BatchJob) -> Bool { job.index % n == k - 1 }

    public func select(_ jobs: [BatchJob]) -> [BatchJob] { jobs.filter(contains) }

    public var description: String { "\(k)/\(n)" }
}
