import AmberArchive
import AmberCore
import ArgumentParser
import CAmber
import Foundation

/// The version the header defines (AMBER_VERSION_STRING): the command is released with it.
let amberVersion = AMBER_VERSION_STRING

@main
struct Amber: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "amber",
        abstract: "Inspect property lists, keyed archives, restoration archives and restoration reports.",
        version: "amber \(amberVersion)",
        subcommands: [Dump.self, Info.self, Inspect.self, Report.self, Version.self]
    )
}

extension Amber {
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a property list, or a keyed archive's object graph, as JSON.",
            discussion: """
                Reads a binary (bplist00) or XML property list and prints it as JSON. With \
                --keyed, reads an NSKeyedArchiver archive and prints its $top dictionary with \
                every reference resolved: shared objects and cycles appear once with "$id" and \
                as {"$ref": n} after. An archive whose $top refers to no object, or whose root \
                is a value in place rather than a reference, has no root and is refused. An object of Foundation's classes whose fields are missing, \
                of the wrong type or inconsistent refuses the archive, as the library refuses it. \
                A restoration archive in Amber's envelope is opened first: \
                one stored without encryption as it is, an encrypted one with --key-file.
                """
        )

        @Flag(name: .long, help: "Resolve an NSKeyedArchiver archive into its object graph.")
        var keyed = false

        @Option(name: .long, help: "The key file of an encrypted archive (32 bytes, mode 0600).")
        var keyFile: String?

        @Argument(help: "The property list or archive to read.")
        var file: String

        func run() throws {
            let json: JSON
            do {
                let bytes = try openEnvelope(try readFile(file), keyFile: keyFile)
                json = keyed ? try keyedJSON(bytes) : try plainJSON(bytes)
            } catch {
                reject(file, error)
                throw ExitCode.failure
            }
            writeOut(JSONWriter.format(json))
        }

        func plainJSON(_ bytes: [UInt8]) throws -> JSON {
            if XMLPropertyListReader.looksLikeXML(bytes) {
                return JSON(try XMLPropertyListReader.read(bytes))
            }
            return JSON(try BinaryPropertyList.decode(bytes))
        }

        func keyedJSON(_ bytes: [UInt8]) throws -> JSON {
            let archive: KeyedArchive
            if XMLPropertyListReader.looksLikeXML(bytes) {
                // XML keyed archives hold UIDs as {CF$UID: n}; the reader makes them UIDs.
                let plist = try XMLPropertyListReader.read(bytes)
                try checkUIDs(plist)
                archive = try KeyedArchive(bytes: BinaryPropertyList.encode(plist))
            } else {
                archive = try KeyedArchive(bytes: bytes)
            }
            return try KeyedGraph.render(archive)
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say what a file is: how a restoration archive is protected, or which property list it is.",
            discussion: """
                For a restoration archive in Amber's envelope: the envelope format (2; 1 from \
                earlier releases), the protection (AES-256-GCM, or "none (not encrypted)"), the \
                size of the chunks it is sealed in (format 2), the bundle version of the \
                application that wrote it, and the size. Reads only the header: no key needed.
                """
        )

        @Argument(help: "The file to inspect.")
        var file: String

        func run() throws {
            do {
                let bytes = try readFile(file)
                if EnvelopeFormat.looksLikeEnvelope(bytes) {
                    let header = try EnvelopeFormat.header(of: bytes)
                    print("restoration archive, envelope format \(header.formatVersion)")
                    print("protection: \(header.algorithm)")
                    if let chunkSize = header.chunkSize { print("sealed in chunks of: \(chunkSize) bytes") }
                    print("bundle version: \(header.bundleVersion)")
                    print("size: \(bytes.count) bytes")
                } else if XMLPropertyListReader.looksLikeXML(bytes) {
                    print("XML property list, \(bytes.count) bytes, not in an envelope")
                } else {
                    _ = try BinaryPropertyList.decode(bytes)
                    print("binary property list, \(bytes.count) bytes, not in an envelope")
                }
            } catch {
                reject(file, error)
                throw ExitCode.failure
            }
        }
    }

    struct Version: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the version.")

        func run() {
            print("amber \(amberVersion)")
        }
    }
}

// MARK: Input and output

struct IOFailure: Error {
    var message: String
}

/// The whole file, refusing one larger than the codec accepts before reading it.
func readFile(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw IOFailure(message: String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw IOFailure(message: String(cString: strerror(errno))) }
    let limit = ArchiveLimits.default.maxBytes
    if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit {
        throw IOFailure(message: "the input is \(info.st_size) bytes, over the limit of \(limit)")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw IOFailure(message: String(cString: strerror(errno)))
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0 ..< n])
        if bytes.count > limit {
            throw IOFailure(message: "the input is over the limit of \(limit) bytes")
        }
    }
    return bytes
}

/// The archive inside Amber's envelope, or the bytes themselves if they are not in one.
/// - Throws: for an encrypted archive without `keyFile`, a key file that is refused, or an
///   archive that does not authenticate under it.
/// Sensitive values (SPEC R34) come back hidden (`SensitiveMask`): nothing the command prints
/// shows them.
func openEnvelope(_ bytes: [UInt8], keyFile: String?) throws -> [UInt8] {
    SensitiveMask.apply(try openedEnvelope(bytes, keyFile: keyFile))
}

/// The archive inside Amber's envelope with its sensitive values (SPEC R34) as they are, for
/// an output that prints no value, only sizes (`amber inspect --sizes`): a sensitive value then
/// counts its real size, not that of the `<sensitive>` that masks it.
func openEnvelopeForSizes(_ bytes: [UInt8], keyFile: String?) throws -> [UInt8] {
    try openedEnvelope(bytes, keyFile: keyFile)
}

/// The archive inside Amber's envelope, as it is.
private func openedEnvelope(_ bytes: [UInt8], keyFile: String?) throws -> [UInt8] {
    guard EnvelopeFormat.looksLikeEnvelope(bytes) else { return bytes }
    let header = try EnvelopeFormat.header(of: bytes)
    switch header.algorithm {
    case .none:
        return try SealedEnvelope.unencrypted(bundleVersion: header.bundleVersion).open(bytes)
    case .aes256GCM:
        guard let keyFile else {
            throw IOFailure(message: "the archive is encrypted (\(header.algorithm)); pass its key file with --key-file")
        }
        let slash = keyFile.lastIndex(of: "/")
        let directory = slash.map { String(keyFile[..<$0]) } ?? "."
        let name = slash.map { String(keyFile[keyFile.index(after: $0)...]) } ?? keyFile
        let provider = KeyFileProvider(directory: directory.isEmpty ? "/" : directory, name: name)
        return try SealedEnvelope(keyProvider: provider, bundleVersion: header.bundleVersion).open(bytes)
    }
}

/// Refuses a UID beyond `$objects` before the property list is encoded: the encoder's
/// table of UIDs grows with the largest UID value, so one large UID in a small XML file
/// would cost hundreds of megabytes. The message is the one KeyedArchive gives.
func checkUIDs(_ plist: PropertyList) throws(ArchiveError) {
    guard case .array(let objects)? = plist["$objects"] else { return }  // KeyedArchive says what is wrong
    var pending = [plist]
    while let value = pending.popLast() {
        switch value {
        case .uid(let u) where u >= UInt64(objects.count):
            throw ArchiveError(.notKeyedArchive, "UID \(u) is out of range: $objects has \(objects.count) items")
        case .array(let items), .set(let items): pending += items
        case .dictionary(let pairs): for pair in pairs { pending += [pair.key, pair.value] }
        default: break
        }
    }
}

/// Reports a rejected file: one line on standard error, `amber: FILE: reason`.
func reject(_ path: String, _ error: Error) {
    let reason: String
    switch error {
    case let e as ArchiveError: reason = e.message
    case let e as XMLPropertyListReader.Failure: reason = e.message
    case let e as IOFailure: reason = e.message
    case let e as AmberError: reason = e.message
    default: reason = String(describing: error)
    }
    let line = "amber: \(oneLine(path)): \(oneLine(reason))\n"
    FileHandle.standardError.write(Data(line.utf8))
}

/// The text with control characters escaped, so that a message stays on one line.
func oneLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{0}" ..< "\u{20}", "\u{7F}", "\u{2028}", "\u{2029}":
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

func writeOut(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}
