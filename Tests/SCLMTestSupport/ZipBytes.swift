import Foundation

/// Raw-byte edits of a zip made by ``ZipBuilder``, for the hostile cases no zip writer produces: flipped
/// data (CRC mismatch), encryption flags, foreign compression methods, non-UTF-8 names, entries sharing
/// one local header, truncation.
///
/// Entries are found by name in the central directory; every edit keeps the local header and the
/// central-directory record consistent, so only the intended defect remains.
package struct ZipBytes {
    /// The archive bytes.
    package var bytes: [UInt8]

    /// Loads the zip at `path`.
    package init(contentsOf path: String) throws {
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes the (edited) bytes to `path`.
    package func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Renames entry `name` to `newName`, which must have the same length; `utf8Flag` sets or clears
    /// general-purpose bit 11 ("names are UTF-8").
    package mutating func rename(_ name: String, to newName: [UInt8], utf8Flag: Bool? = nil) throws {
        let (local, central) = try headers(of: name)
        guard newName.count == name.utf8.count else { throw ZipBuilderError("rename needs a same-length name") }
        bytes.replaceSubrange((local + 30)..<(local + 30 + newName.count), with: newName)
        bytes.replaceSubrange((central + 46)..<(central + 46 + newName.count), with: newName)
        if let utf8Flag {
            for flags in [local + 6, central + 8] {
                let value = uint16(at: flags)
                setUInt16(utf8Flag ? value | 0x0800 : value & ~0x0800, at: flags)
            }
        }
    }

    /// Sets general-purpose flag bits `mask` on entry `name` (bit 0: encrypted).
    package mutating func setFlags(_ mask: UInt16, onEntry name: String) throws {
        let (local, central) = try headers(of: name)
        setUInt16(uint16(at: local + 6) | mask, at: local + 6)
        setUInt16(uint16(at: central + 8) | mask, at: central + 8)
    }

    /// Sets entry `name`'s compression method (12 is bzip2) and, optionally, the uncompressed size it declares.
    package mutating func setMethod(_ method: UInt16, declaredSize: UInt32? = nil, onEntry name: String) throws {
        let (local, central) = try headers(of: name)
        setUInt16(method, at: local + 8)
        setUInt16(method, at: central + 10)
        if let declaredSize {
            setUInt32(declaredSize, at: local + 22)
            setUInt32(declaredSize, at: central + 24)
        }
    }

    /// Sets the Unix mode (file type and permissions) that entry `name`'s central-directory record declares,
    /// marking the entry as made on Unix (`0o020644` is a character device).
    package mutating func setUnixMode(_ mode: UInt32, onEntry name: String) throws {
        let (_, central) = try headers(of: name)
        bytes[central + 5] = 3
        setUInt32(mode << 16, at: central + 38)
    }

    /// Adds a PKWARE Unix extra field (APPNOTE 4.5.7, id 0x000d) to entry `name`'s central-directory record:
    /// atime, mtime (4 bytes each), uid, gid (2 bytes each), then `data` — a hard or symbolic link's target,
    /// or a device's major and minor numbers.
    package mutating func addUnixExtraField(_ data: [UInt8], onEntry name: String) throws {
        // times 0, uid and gid 1000
        try addExtraField(
            0x000d, data: [UInt8](repeating: 0, count: 8) + [0xE8, 0x03, 0xE8, 0x03] + data, onEntry: name)
    }

    /// Declares ZIP64 values (APPNOTE 4.5.3, extra field 0x0001) in entry `name`'s central-directory record:
    /// each value given replaces its 32-bit field with 0xFFFFFFFF and goes into the extra field, in the
    /// order uncompressed size, compressed size, local header offset.
    package mutating func setZip64(
        uncompressedSize: UInt64? = nil, compressedSize: UInt64? = nil, localHeaderOffset: UInt64? = nil,
        onEntry name: String
    ) throws {
        let (_, central) = try headers(of: name)
        var data: [UInt8] = []
        for (value, field) in [(uncompressedSize, 24), (compressedSize, 20), (localHeaderOffset, 42)] {
            guard let value else { continue }
            setUInt32(0xFFFF_FFFF, at: central + field)
            data += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        try addExtraField(0x0001, data: data, onEntry: name)
    }

    /// Adds a ZIP64 end-of-central-directory locator pointing at `offset` just before the end record, and
    /// marks the end record's counts as "see ZIP64" (0xFFFF), so a reader must follow the locator.
    package mutating func addZip64Locator(pointingAt offset: UInt64) throws {
        let end = try endRecord()
        setUInt16(0xFFFF, at: end + 8)
        setUInt16(0xFFFF, at: end + 10)
        let locator: [UInt8] =
            [0x50, 0x4B, 0x06, 0x07, 0, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: offset >> (8 * $0)) }
            + [1, 0, 0, 0]
        bytes.insert(contentsOf: locator, at: end)
    }

    /// Puts `count` bytes before the archive without changing any offset, as a self-extractor stub does:
    /// readers find the entries by the difference between where the directory is and where it says it is.
    package mutating func prependStub(_ count: Int) {
        bytes.insert(contentsOf: [UInt8](repeating: 0x5A, count: count), at: 0)
    }

    /// Adds extra field `id` holding `data` to entry `name`'s central-directory record. The directory grows
    /// by the field; the end record follows.
    private mutating func addExtraField(_ id: UInt16, data: [UInt8], onEntry name: String) throws {
        let (_, central) = try headers(of: name)
        var field: [UInt8] = []
        for value in [id, UInt16(data.count)] { field += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        field += data
        let extraLength = Int(uint16(at: central + 30))
        let insertion = central + 46 + Int(uint16(at: central + 28)) + extraLength
        bytes.insert(contentsOf: field, at: insertion)
        setUInt16(UInt16(extraLength + field.count), at: central + 30)
        let end = try endRecord()
        setUInt32(uint32(at: end + 12) + UInt32(field.count), at: end + 12)
    }

    /// Replaces the archive comment (the bytes after the end-of-central-directory record, up to 65,535) with
    /// `comment` and declares its length in the record.
    package mutating func setComment(_ comment: [UInt8]) throws {
        let end = try endRecord()
        bytes.replaceSubrange((end + 22)..., with: comment)
        setUInt16(UInt16(comment.count), at: end + 20)
    }

    /// The offset of the end-of-central-directory record (the last `PK\5\6`).
    private func endRecord() throws -> Int {
        var index = bytes.count - 22
        while index >= 0 {
            if uint32(at: index) == 0x0605_4B50 { return index }
            index -= 1
        }
        throw ZipBuilderError("no end-of-central-directory record")
    }

    /// Points entry `name`'s central-directory record at the local header of entry `other`, or `skipping`
    /// bytes past it: 0 makes the two share one stored file, more makes their data overlap.
    package mutating func pointEntry(_ name: String, intoEntry other: String, skipping: Int = 0) throws {
        let (_, central) = try headers(of: name)
        let (otherLocal, _) = try headers(of: other)
        setUInt32(UInt32(otherLocal + skipping), at: central + 42)
    }

    /// Inverts the first data byte of entry `name` (a stored entry then fails its CRC check).
    package mutating func flipFirstDataByte(ofEntry name: String) throws {
        let (local, _) = try headers(of: name)
        let data = local + 30 + Int(uint16(at: local + 26)) + Int(uint16(at: local + 28))
        bytes[data] ^= 0xFF
    }

    /// Declares CRC-32 `crc` for entry `name` in its local header, its central-directory record, or both.
    package mutating func setCRC(
        _ crc: UInt32, onEntry name: String, inLocalHeader: Bool = true, inCentralDirectory: Bool = true
    ) throws {
        let (local, central) = try headers(of: name)
        if inLocalHeader { setUInt32(crc, at: local + 14) }
        if inCentralDirectory { setUInt32(crc, at: central + 16) }
    }

    /// Overwrites the signature of entry `name`'s central-directory record (the directory is then damaged).
    package mutating func damageCentralRecord(ofEntry name: String) throws {
        let (_, central) = try headers(of: name)
        setUInt32(0x0BAD_0BAD, at: central)
    }

    /// Keeps only the first `count` bytes.
    package mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// The offsets of entry `name`'s local header and central-directory record.
    package func headers(of name: String) throws -> (local: Int, central: Int) {
        let wanted = Array(name.utf8)
        // A byte-by-byte scan for the signature ("PK\u{1}\u{2}"), on the raw buffer: an unoptimized test
        // build spends seconds on a megabyte package through Array's generic subscript.
        let found: Int? = bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index + 46 <= buffer.count {
                if buffer[index] == 0x50, buffer[index + 1] == 0x4B, buffer[index + 2] == 0x01,
                    buffer[index + 3] == 0x02
                {
                    let length = Int(buffer[index + 28]) | Int(buffer[index + 29]) << 8
                    let start = index + 46
                    if start + length <= buffer.count, length == wanted.count,
                        buffer[start..<(start + length)].elementsEqual(wanted)
                    {
                        return index
                    }
                }
                index += 1
            }
            return nil
        }
        guard let central = found else { throw ZipBuilderError("no central-directory record named \(name)") }
        return (Int(uint32(at: central + 42)), central)
    }

    private func uint16(at offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
    private func uint32(at offset: Int) -> UInt32 { UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16 }

    private mutating func setUInt16(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8)
    }

    private mutating func setUInt32(_ value: UInt32, at offset: Int) {
        setUInt16(UInt16(value & 0xFFFF), at: offset)
        setUInt16(UInt16(value >> 16), at: offset + 2)
    }
}
