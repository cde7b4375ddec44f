extension Array {
    /// Reverses the elements from `start` to the end, in place. (`self[start...].reverse()`
    /// copies the slice out of the array and back, retaining and releasing every element; the
    /// walk and the report's paths do this once per object.)
    mutating func reverseSuffix(from start: Int) {
        var i = start
        var j = count - 1
        while i < j {
            swapAt(i, j)
            i += 1
            j -= 1
        }
    }
}
