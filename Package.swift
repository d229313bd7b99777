// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "bookrender",
    products: [
        .executable(name: "bookrender", targets: ["bookrender"]),
        .library(name: "BookRenderKit", targets: ["BookRenderKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The image providers' HTTP: pure Swift, nothing loaded at start-up by the processes that never call one.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // async-http-client's TLS; named here only so a failed handshake can be told from a dropped connection.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The render service's HTTP server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Ends the server in order on SIGTERM, once running jobs are finished or checkpointed.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Zipped book folders sent to the service: entries read one by one, so links, escapes and bombs are refused before a byte is written.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // cairo, pango/pangocairo, fontconfig, libpng, libhyphen and libqrencode from Debian.
        .systemLibrary(
            name: "CGraphics",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libpng-dev", "libhyphen-dev", "libqrencode-dev"])]
        ),
        // What Swift cannot call directly: libjpeg/libpng error recovery (setjmp), GObject cast macros,
        // nettle's SHA-256 (nettle-dev), ICU's versioned names (libicu-dev: word breaks), and pictures
        // converted to CMYK JPEGs with Little CMS (liblcms2-dev).
        .target(
            name: "CShim",
            dependencies: ["CGraphics"],
            linkerSettings: ["jpeg", "png16", "pangoft2-1.0", "pangocairo-1.0", "pango-1.0", "fontconfig",
                             "gobject-2.0", "glib-2.0", "nettle", "xxhash", "icuuc", "lcms2"].map { .linkedLibrary($0) }
        ),
        // qpdf's C API (libqpdf-dev): the finishing step writes what cairo cannot (TrimBox/BleedBox,
        // outline, labels).
        .systemLibrary(name: "CQPDF", pkgConfig: "libqpdf", providers: [.apt(["libqpdf-dev"])]),
        // Content streams rewritten: through qpdf's C++ token filters (black text set as grey, pages
        // replaced), and marked as artifacts by a lexer of our own, inflated and compressed again with
        // libdeflate (libdeflate-dev), several times faster than zlib at it and a little tighter.
        .target(name: "CContentColour", linkerSettings: [.linkedLibrary("qpdf"), .linkedLibrary("deflate")]),
        // The program's shaping cache: it defines HarfBuzz's hb_shape and hb_buffer_add_utf8 for the
        // whole process, so only the executable may depend on it (see include/shape_cache.h).
        .target(
            name: "CShapeCache",
            dependencies: ["CGraphics"],
            linkerSettings: ["harfbuzz", "pango-1.0", "gobject-2.0", "glib-2.0", "dl"].map { .linkedLibrary($0) }
        ),
        // What several stages share: atomic writes, content hashes, PNG files, page file names.
        .target(name: "BookBase", dependencies: ["CShim", "CGraphics"]),
        .target(name: "BookModel"),
        .target(name: "BookConfig", dependencies: ["BookModel"]),
        .target(name: "BookResolve", dependencies: ["BookBase", "BookModel", "BookConfig", "CShim"]),
        .target(name: "BookLayout", dependencies: ["BookBase", "BookModel", "BookConfig", "BookResolve", "CShim", "CGraphics"]),
        .target(name: "BookRender", dependencies: ["BookBase", "BookModel", "BookConfig", "BookResolve", "BookLayout", "CShim", "CGraphics", "CQPDF", "CContentColour",
                                                   .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .target(name: "BookCompare", dependencies: ["BookBase", "CShim", "CGraphics"]),
        // HTTP to the services that take a key (image providers, the printer): origins a key may
        // go to, redirects kept within them, proxies, keys kept out of messages.
        .target(name: "BookHTTP", dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                 .product(name: "NIOCore", package: "swift-nio"),
                                                 .product(name: "NIOHTTP1", package: "swift-nio"),
                                                 .product(name: "NIOPosix", package: "swift-nio"),
                                                 .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // The optional generation step: providers, prompts, queue, cache, journal.
        .target(name: "BookIllustrate", dependencies: ["BookBase", "BookModel", "BookConfig", "BookResolve", "BookHTTP", "CGraphics"]),
        // Ordering printed copies from Lulu's Print API: product code, cover check, file validation,
        // prices, print jobs placed once, their status and webhooks.
        .target(name: "BookOrder", dependencies: ["BookBase", "BookHTTP"]),
        // The library product: the pipeline as an API that the CLI, batch and tests call.
        .target(name: "BookRenderKit", dependencies: ["BookBase", "BookModel", "BookConfig", "BookResolve", "BookLayout",
                                                      "BookRender", "BookCompare", "BookIllustrate", "BookOrder", "CGraphics"],
                // Only to read HarfBuzz's version for reports.
                linkerSettings: [.linkedLibrary("harfbuzz")]),
        // Debian's SQLite (libsqlite3-dev): the render service's job queue.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The render service: HTTP API, durable job queue, workers that run the export in child processes.
        .target(name: "BookServe", dependencies: ["BookBase", "BookConfig", "BookResolve", "BookRenderKit", "CShim", "CSQLite",
                                                  .product(name: "Hummingbird", package: "hummingbird"),
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                  .product(name: "Logging", package: "swift-log"),
                                                  .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .executableTarget(
            name: "bookrender",
            dependencies: [
                "BookRenderKit", "BookRender", "BookLayout", "BookServe", "CShapeCache",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Shared by the test targets: the repository's folders, books opened through the library, tools
        // to run, test images, PDF readers and the golden cases.
        .target(name: "BookTestSupport", dependencies: ["BookRenderKit", "BookConfig", "BookLayout", "BookRender"],
                path: "Tests/BookTestSupport"),
        .testTarget(name: "BookBaseTests", dependencies: ["BookBase", "BookTestSupport"]),
        .testTarget(name: "BookModelTests", dependencies: ["BookModel", "BookTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "BookConfigTests", dependencies: ["BookConfig", "BookModel", "BookTestSupport"]),
        .testTarget(name: "BookResolveTests", dependencies: ["BookBase", "BookTestSupport", "BookResolve"]),
        .testTarget(name: "BookLayoutTests", dependencies: ["BookRenderKit", "BookTestSupport", "BookLayout", "BookResolve", "BookModel", "BookConfig", "CGraphics"]),
        .testTarget(name: "BookRenderTests", dependencies: ["BookRenderKit", "BookBase", "BookTestSupport", "BookRender", "BookLayout", "BookResolve", "BookModel", "BookConfig", "CGraphics"]),
        .testTarget(name: "BookCompareTests", dependencies: ["BookRenderKit", "BookCompare", "BookTestSupport", "BookLayout", "CGraphics"]),
        // The golden-image suite: every case under Tests/Goldens rendered and compared with its reference PNGs.
        .testTarget(name: "GoldenTests", dependencies: ["BookRenderKit", "BookTestSupport"]),
        .testTarget(name: "BookIllustrateTests", dependencies: ["BookBase", "BookHTTP", "BookIllustrate", "BookModel", "BookResolve", "BookTestSupport"]),
        .testTarget(name: "BookBatchTests", dependencies: ["BookRenderKit", "BookTestSupport"]),
        // Ordering against a loopback stand-in for Lulu's Print API (Tests/LuluPrintServer).
        .testTarget(name: "BookOrderTests", dependencies: ["BookOrder", "BookBase", "BookRenderKit", "BookTestSupport"]),
        .testTarget(name: "BookServeTests", dependencies: ["BookServe", "BookRenderKit", "BookTestSupport",
                                                           .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                           .product(name: "NIOCore", package: "swift-nio"),
                                                           .product(name: "NIOHTTP1", package: "swift-nio")]),
        .testTarget(name: "CLITests", dependencies: ["BookRenderKit", "BookTestSupport", "BookConfig"]),
    ],
    cxxLanguageStandard: .cxx17
)
