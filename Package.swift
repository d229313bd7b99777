// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "bookrender",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bookrender", targets: ["bookrender"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // cairo, pango/pangocairo, fontconfig, libpng, libhyphen and libqrencode from Debian.
        .systemLibrary(
            name: "CGraphics",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libpng-dev", "libhyphen-dev", "libqrencode-dev"])]
        ),
        // What Swift cannot call directly: libjpeg/libpng error recovery (setjmp), GObject cast macros and
        // nettle's SHA-256 (nettle-dev).
        .target(
            name: "CShim",
            dependencies: ["CGraphics"],
            linkerSettings: ["jpeg", "png16", "pangoft2-1.0", "pangocairo-1.0", "pango-1.0", "fontconfig",
                             "gobject-2.0", "glib-2.0", "harfbuzz", "nettle", "xxhash", "deflate", "dl"].map { .linkedLibrary($0) }
        ),
        // qpdf's C API (libqpdf-dev): the finishing step writes what cairo cannot (TrimBox/BleedBox,
        // outline, labels). libqpdf is loaded when first needed, not linked (see qpdf_loaded.h).
        .target(name: "CQPDF", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "BookModel"),
        .target(name: "BookConfig", dependencies: ["BookModel"]),
        .target(name: "BookResolve", dependencies: ["BookModel", "BookConfig", "CShim", "CGraphics"]),
        .target(name: "BookLayout", dependencies: ["BookModel", "BookConfig", "BookResolve", "CShim", "CGraphics"]),
        .target(name: "BookRender", dependencies: ["BookModel", "BookConfig", "BookResolve", "BookLayout", "CShim", "CGraphics", "CQPDF"]),
        .target(name: "BookCompare", dependencies: ["BookRender", "CShim", "CGraphics"]),
        // The optional generation step: providers, prompts, queue, cache, journal.
        .target(name: "BookIllustrate", dependencies: ["BookModel", "BookConfig", "BookResolve", "BookRender", "CShim", "CGraphics"]),
        // Print-shop batch jobs over a manifest or a folder of books.
        .target(name: "BookBatch", dependencies: ["BookModel", "BookConfig", "BookResolve", "BookLayout", "BookRender"]),
        .executableTarget(
            name: "bookrender",
            dependencies: [
                "BookModel", "BookConfig", "BookResolve", "BookLayout", "BookRender", "BookCompare",
                "BookIllustrate", "BookBatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // tcmalloc's thread caches instead of glibc's per-thread arenas, which grow a page at a
            // time (an mprotect call each) while Pango works on the helper threads. The program
            // only: tests keep the system allocator.
            linkerSettings: [.linkedLibrary(":libtcmalloc_minimal.so.4")]
        ),
        // Shared by the test targets: the repository's folders, a pipeline for tests, tools to run,
        // test images, PDF readers and the golden cases.
        .target(name: "BookTestSupport", dependencies: ["BookModel", "BookConfig", "BookResolve", "BookLayout", "BookRender"],
                path: "Tests/BookTestSupport"),
        .testTarget(name: "BookModelTests", dependencies: ["BookModel", "BookTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "BookConfigTests", dependencies: ["BookConfig", "BookModel"]),
        .testTarget(name: "BookResolveTests", dependencies: ["BookTestSupport", "BookResolve", "BookModel", "BookConfig"]),
        .testTarget(name: "BookLayoutTests", dependencies: ["BookTestSupport", "BookLayout", "BookResolve", "BookModel", "BookConfig", "CShim", "CGraphics"]),
        .testTarget(name: "BookRenderTests", dependencies: ["BookTestSupport", "BookRender", "BookLayout", "BookResolve", "BookModel", "BookConfig", "CShim", "CGraphics"]),
        .testTarget(name: "BookCompareTests", dependencies: ["BookCompare", "BookTestSupport", "BookLayout", "CShim", "CGraphics"]),
        // The golden-image suite: every case under Tests/Goldens rendered and compared with its reference PNGs.
        .testTarget(name: "GoldenTests", dependencies: ["BookCompare", "BookRender", "BookLayout", "BookModel", "BookTestSupport"]),
        .testTarget(name: "BookIllustrateTests", dependencies: ["BookIllustrate", "BookModel", "BookResolve", "BookTestSupport"]),
        .testTarget(name: "BookBatchTests", dependencies: ["BookBatch", "BookModel", "BookTestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["BookTestSupport", "BookModel", "BookConfig"]),
    ]
)
