# The Swift flags every release build of the program takes; sourced (POSIX sh) by the scripts that
# build one, so the samples, the tests and the benchmark run the same program.
#
# Concrete generic types (a Set<String>, a decoder's KeyedDecodingContainer<CodingKeys>) are
# reached through their metadata accessors instead of by mangled name. By name, the runtime checks
# each generic requirement by scanning every protocol conformance in the binary, the first time it
# meets each type; a short export met enough of them to spend milliseconds there.
# shellcheck disable=SC2034
RELEASE_SWIFT_FLAGS="-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors"
