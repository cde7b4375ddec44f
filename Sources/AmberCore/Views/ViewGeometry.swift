// The small value types of a view's standard state (CoreGraphics' CGPoint, CGSize, CGRect,
// UIEdgeInsets, CGAffineTransform; NSRange), grouped in one file: each is a handful of doubles.

/// A point (CGPoint).
public struct ViewPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A size (CGSize).
public struct ViewSize: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle (CGRect).
public struct ViewRect: Equatable, Sendable {
    public var origin: ViewPoint
    public var size: ViewSize
    public init(origin: ViewPoint, size: ViewSize) {
        self.origin = origin
        self.size = size
    }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: ViewPoint(x: x, y: y), size: ViewSize(width: width, height: height))
    }
    var isFinite: Bool { origin.isFinite && size.width.isFinite && size.height.isFinite }
}

/// Insets from each edge (UIEdgeInsets).
public struct EdgeInsets: Equatable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    var isFinite: Bool { top.isFinite && left.isFinite && bottom.isFinite && right.isFinite }
}

/// An affine transform (CGAffineTransform): x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct AffineTransform: Equatable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }
    /// The identity transform.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }
}

/// A range of a text (NSRange), in whatever unit the host counts its text in (UTF-16 code units
/// in UIKit); the same unit as the text length the host reports at restoration.
public struct TextRange: Equatable, Sendable {
    public var location: Int
    public var length: Int
    public init(location: Int, length: Int) {
        self.location = location
        self.length = length
    }
    /// Whether the range lies within a text of `textLength` units.
    public func fits(textLength: Int) -> Bool {
        location >= 0 && length >= 0 && location <= textLength && length <= textLength - location
    }
}

/// A page of a web view's back/forward list: its URL and its scroll position.
public struct WebPage: Equatable, Sendable {
    public var url: String
    public var scrollPosition: ViewPoint
    public init(url: String, scrollPosition: ViewPoint) {
        self.url = url
        self.scrollPosition = scrollPosition
    }
}
