import Foundation
import Testing
@testable import BookServe

/// A render child gets the service's environment without the secrets only the service uses.
@Suite struct ChildEnvironmentTests {
    @Test func theServicesSecretsStayWithTheService() {
        let service = ["PATH": "/usr/bin", "BOOKRENDER_SERVE_TOKEN": "t0ken-of-the-service", "LULU_CLIENT_KEY": "lulu-key-123",
                       "LULU_CLIENT_SECRET": "lulu-secret-456", "OPENAI_API_KEY": "sk-provider", "TMPDIR": "/tmp"]
        let child = ChildEnvironment.make(scratch: URL(fileURLWithPath: "/data/jobs/a/tmp"), from: service)
        #expect(child["BOOKRENDER_SERVE_TOKEN"] == nil && child["LULU_CLIENT_KEY"] == nil && child["LULU_CLIENT_SECRET"] == nil)
        #expect(child["PATH"] == "/usr/bin" && child["OPENAI_API_KEY"] == "sk-provider", "what an export needs is kept")
        #expect(child["TMPDIR"] == "/data/jobs/a/tmp")
        #expect(ChildEnvironment.make(scratch: nil, from: service)["TMPDIR"] == "/tmp")
    }
}
