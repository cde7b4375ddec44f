import AmberArchive
import AmberCore
import Foundation
import Testing

/// R22: the limits the C header documents (include/amber/common.h) are the ones the codec enforces.
@Suite struct HeaderLimitsTests {
    /// The value of `#define NAME (...)` in include/amber/common.h, evaluated (products of integers).
    static func defined(_ name: String, in header: String) -> Int? {
        for line in header.split(separator: "\n") where line.hasPrefix("#define \(name) ") {
            let expression = line.dropFirst("#define \(name) ".count)
                .replacingOccurrences(of: "(", with: "").replacingOccurrences(of: ")", with: "")
                .replacingOccurrences(of: "L", with: "")
            return expression.split(separator: "*").reduce(1) { product, factor in
                product * (Int(factor.trimmingCharacters(in: .whitespaces)) ?? 0)
            }
        }
        return nil
    }

    @Test func headerLimitsMatchTheCodec() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("include/amber/common.h")
        let header = try String(contentsOf: url, encoding: .utf8)
        let limits = ArchiveLimits.default
        #expect(Self.defined("AMBER_LIMIT_ARCHIVE_BYTES", in: header) == limits.maxBytes)
        #expect(Self.defined("AMBER_LIMIT_OBJECTS", in: header) == limits.maxObjects)
        #expect(Self.defined("AMBER_LIMIT_DEPTH", in: header) == limits.maxDepth)
        #expect(Self.defined("AMBER_LIMIT_VALUE_BYTES", in: header) == limits.maxValueLength)
        #expect(Self.defined("AMBER_LIMIT_STORED_BYTES", in: header) == FileStore(directory: "/nonexistent").maxBytes)
    }
}
