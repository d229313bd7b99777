import Foundation
import Testing
@testable import BookRenderKit
import BookTestSupport

@Suite struct ShardTests {
    func jobs(_ n: Int) -> [BatchJob] {
        (0..<n).map { BatchJob(id: "line \($0 + 1)", index: $0, input: "/b\($0).json", output: "/o\($0).pdf") }
    }

    @Test(arguments: [1, 2, 3, 7, 40])
    func shardsCoverEveryJobExactlyOnce(count: Int) throws {
        let list = jobs(count)
        var seen: [String] = []
        for k in 1...3 { seen += try Shard(parsing: "\(k)/3").select(list).map(\.id) }
        #expect(seen.sorted() == list.map(\.id).sorted())
        #expect(Set(seen).count == seen.count)
    }

    @Test func kubernetesAndSlurmIndexesAreZeroBased() throws {
        #expect(try Shard(count: 4, environment: ["JOB_COMPLETION_INDEX": "0"]) == Shard(k: 1, n: 4))
        #expect(try Shard(count: 4, environment: ["SLURM_ARRAY_TASK_ID": "3"]) == Shard(k: 4, n: 4))
        #expect(throws: BatchError.self) { try Shard(count: 4, environment: ["JOB_COMPLETION_INDEX": "4"]) }
        #expect(throws: BatchError.self) { try Shard(count: 4, environment: [:]) }
        #expect(throws: BatchError.self) { try Shard(parsing: "0/3") }
        #expect(throws: BatchError.self) { try Shard(parsing: "4/3") }
    }

    @Test func manifestPathsAreRelativeToTheManifest() throws {
        let dir = try temporaryDirectory("manifest")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = """
        # comment
        {"input": "books/a.json", "output": "out/a.pdf", "profile": "kdp", "options": {"theme": "memoir", "png": "out/a"}}

        {"input": "/abs/b.json", "output": "/abs/b.pdf"}
        """
        let url = dir.appendingPathComponent("jobs.jsonl")
        try Data(text.utf8).write(to: url)
        let jobs = try Manifest.read(jsonLines: url)
        #expect(jobs.count == 2)
        #expect(jobs[0].id == "line 2" && jobs[0].index == 0 && jobs[1].index == 1)
        #expect(jobs[0].input == dir.appendingPathComponent("books/a.json").standardizedFileURL.path)
        #expect(jobs[0].options.png == dir.appendingPathComponent("out/a").standardizedFileURL.path)
        #expect(jobs[0].options.arguments(profile: jobs[0].profile) == ["--profile", "kdp", "--theme", "memoir", "--png", jobs[0].options.png!])
        #expect(jobs[1].output == "/abs/b.pdf")
        try Data("{\"output\": \"x.pdf\"}\n".utf8).write(to: url)
        #expect(throws: BatchError.self) { try Manifest.read(jsonLines: url) }
    }
}
