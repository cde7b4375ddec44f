/// Empties an array of objects a block at a time, from the end, reading each object of a
/// block before releasing the block; returns what the reads add up to (to be stored by the
/// caller, so that they are not optimized away).
///
/// The coders keep every object they met until they end, and at their end many of those
/// objects have long left the caches. A release is an atomic decrement of the object's count,
/// and the processor runs atomics one at a time: released in turn, each cold object would cost
/// a whole wait on memory. Plain reads overlap, so a block of them brings the block's objects
/// into the caches in about the time of one such wait, and the releases that follow find them
/// there.
@inline(__always)
func releaseInBlocks(_ objects: inout [AnyObject]) -> UInt {
    var sum: UInt = 0
    while !objects.isEmpty {
        let start = max(objects.count - 32, 0)
        for i in start ..< objects.count { sum &+= UInt(bitPattern: ObjectIdentifier(type(of: objects[i]))) }
        objects.removeSubrange(start...)
    }
    return sum
}

/// As `releaseInBlocks(_:)`, for arrays of objects (the archiver's `heldArrays`): releases each array, and with it its objects if nothing else
/// holds them.
@inline(__always)
func releaseInBlocks(_ arrays: inout [any HeldObjects]) -> UInt {
    var sum: UInt = 0
    while !arrays.isEmpty {
        let start = max(arrays.count - 32, 0)
        for i in start ..< arrays.count { sum &+= UInt(bitPattern: arrays[i].heldCount()) }
        arrays.removeSubrange(start...)
    }
    return sum
}
