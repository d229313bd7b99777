// swift-tools-version:6.0
// A program that uses bookrender as a library: the test suite builds it to prove the product
// can be imported from another package.
import PackageDescription

let package = Package(
    name: "book-export",
    dependencies: [
        .package(name: "bookrender", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "book-export", dependencies: [.product(name: "BookRenderKit", package: "bookrender")]),
    ]
)
