import Foundation
import Hummingbird
import NIOCore
import Logging
import ServiceLifecycle
import BookBase

/// `bookrender serve`: the job database, the workers and the HTTP API, until SIGTERM or SIGINT.
public enum BookServer {
    public static func run(_ config: ServeConfiguration) async throws {
        try FileManager.default.createDirectory(at: config.jobsFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: config.cacheFolder, withIntermediateDirectories: true)
        let lock = try DataFolderLock(config.dataFolder)
        defer { withExtendedLifetime(lock) {} }
        // The scratch the service before this one had in the temporary folder, if it was killed.
        if let previous = lock.previous { TemporaryFiles.Leftovers(ofProcess: previous, writing: []).remove() }
        let store = try JobStore(path: config.databaseFile.path)
        let scheduler = JobScheduler(store: store, config: config)
        try await scheduler.recover()
        await scheduler.sweep()
        let shutdown = ShutdownFlag()
        let router = Router()
        ServeRoutes(config: config, scheduler: scheduler, shutdown: shutdown, catalog: ServeCatalog.load()).register(on: router)
        OrderRoutes(config: config, scheduler: scheduler, desk: try OrderDesk(config: config)).register(on: router)
        let host = config.host
        let app = Application(router: router,
                              configuration: .init(address: .hostname(host, port: config.port), serverName: "bookrender"),
                              onServerRunning: { channel in
                                  let port = channel.localAddress?.port ?? config.port
                                  config.announce("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)")
                              })
        await scheduler.pump()
        let logger = Logger(label: "bookrender")
        var groupConfig = ServiceGroupConfiguration(services: [.init(service: app)], gracefulShutdownSignals: [], logger: logger)
        // The jobs are drained before the HTTP server is asked to stop; a client that keeps a
        // connection open must not keep the service from exiting.
        groupConfig.maximumGracefulShutdownDuration = .seconds(10)
        groupConfig.maximumCancellationDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfig)
        let server = Task { try await group.run() }
        StopSignal.install()
        let watcher = Task {
            while !StopSignal.received { try await Task.sleep(nanoseconds: 100_000_000) }
            shutdown.set()
            await scheduler.drain(grace: config.grace)
            await group.triggerGracefulShutdown()
        }
        defer { watcher.cancel() }
        // Jobs past --keep go while the service is quiet too.
        let sweeper = Task {
            guard let keep = config.keep else { return }
            let every = min(max(keep / 4, 1), 60)
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: UInt64(every * 1e9))
                await scheduler.sweep()
            }
        }
        defer { sweeper.cancel() }
        do { try await server.value } catch is CancellationError {}
    }
}

/// SIGTERM and SIGINT only raise a flag: the service notices it and shuts down in order
/// (`JobScheduler.drain`), which a signal handler could not do.
enum StopSignal {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static var received: Bool { flag != 0 }

    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in StopSignal.flag = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
    }
}
