// amber/view.h — Views and model association (SPEC R17, R18): kinds, accessors, data sources.

import AmberCore
import CAmber

/// Gives a view a kind and accessors. Backs `amber_object_set_view_accessors`.
@c @implementation public func amber_object_set_view_accessors(
    _ view: OpaquePointer?, _ kind: amber_view_kind, _ accessors: UnsafePointer<amber_view_accessors>?,
    _ ctx: UnsafeMutableRawPointer?, _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let o = try objectBox(view, "the view")
        guard let accessors else {
            try o.object.setViewAccessors(nil)
            o.accessorsContext?.release()
            o.accessorsContext = nil
            return
        }
        let a = accessors.pointee
        try checkVersion(a.version, AMBER_VIEW_ACCESSORS_VERSION, "amber_view_accessors")
        guard kind.rawValue >= 1, kind.rawValue <= 255, let k = ViewKind(rawValue: UInt8(kind.rawValue)) else {
            throw invalid("\(kind.rawValue) is not an amber_view_kind of a view with accessors")
        }
        guard let read = a.read, let apply = a.apply else { throw invalid("amber_view_accessors needs read and apply") }
        let context = HostContext(ctx, ctx_free)
        let handle = o.handle
        let c = ctx
        var textLength: ((RestorableObject) throws -> Int)?
        if let f = a.text_length {
            textLength = { object in
                var n: UInt64 = 0
                try callHost("the text_length accessor of '\(object.className)'") { f(&n, handle, c) }
                guard n <= UInt64(Int.max) else {
                    throw AmberError(.callbackFailed, "the text_length accessor of '\(object.className)' gave \(n), more than a text can hold")
                }
                return Int(n)
            }
        }
        try o.object.setViewAccessors(ViewAccessors(
            kind: k,
            read: { object, state in
                var filled = amber_view_state()
                filled.version = CUnsignedInt(AMBER_VIEW_STATE_VERSION)
                filled.kind = cViewKind(state.kind)
                try callHost("the read accessor of '\(object.className)'") { read(handle, &filled, c) }
                do throws(AmberError) {
                    state = try viewState(from: filled, kind: state.kind)
                } catch {
                    throw AmberError(error.code, "the read accessor of '\(object.className)' filled a state that is refused (\(statusName(statusCode(error.code)))): \(error.message)")
                }
            },
            apply: { object, state in
                try withCViewState(state) { s in
                    try callHost("the apply accessor of '\(object.className)'") { apply(handle, s, c) }
                }
            },
            textLength: textLength))
        o.accessorsContext?.release()
        o.accessorsContext = context
    }
}

/// Backs `amber_object_view_kind`.
@c @implementation public func amber_object_view_kind(_ view: OpaquePointer?) -> amber_view_kind {
    guarded(AMBER_VIEW_INVALID) {
        let o = try objectBox(view, "the view").object
        guard o.kind == .view else { throw invalid("'\(o.className)' is a \(o.kind), not a view") }
        return amber_view_kind(rawValue: Int32(o.viewAccessors?.kind.rawValue ?? 0))
    }
}

/// Gives a view its data source's model association. Backs `amber_object_set_model_association`.
@c @implementation public func amber_object_set_model_association(
    _ view: OpaquePointer?, _ association: UnsafePointer<amber_model_association>?,
    _ ctx: UnsafeMutableRawPointer?, _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let o = try objectBox(view, "the view")
        guard let association else {
            try o.object.setModelAssociation(nil)
            o.associationContext?.release()
            o.associationContext = nil
            return
        }
        let a = association.pointee
        try checkVersion(a.version, AMBER_MODEL_ASSOCIATION_VERSION, "amber_model_association")
        guard let toIdentifier = a.identifier_for_index_path, let toIndexPath = a.index_path_for_identifier else {
            throw invalid("amber_model_association needs identifier_for_index_path and index_path_for_identifier")
        }
        let context = HostContext(ctx, ctx_free)
        let handle = o.handle
        let c = ctx
        try o.object.setModelAssociation(ModelAssociation(
            identifierForIndexPath: { object, path in
                let what = "the identifier_for_index_path callback of '\(object.className)'"
                var out: UnsafePointer<CChar>?
                let indexes = path.map { Int64($0) }
                try indexes.withUnsafeBufferPointer { b in
                    try callHost(what) { toIdentifier(&out, handle, b.baseAddress, b.count, c) }
                }
                guard let out else { return nil }
                guard let id = String(validatingCString: out) else { throw AmberError(.callbackFailed, "\(what) gave an identifier that is not valid UTF-8") }
                return id
            },
            indexPathForIdentifier: { object, identifier in
                let what = "the index_path_for_identifier callback of '\(object.className)'"
                var capacity = 16
                while true {
                    var buffer = [Int64](repeating: 0, count: capacity)
                    var length = 0
                    try buffer.withUnsafeMutableBufferPointer { b in
                        try identifier.withCString { id in
                            try callHost(what) { toIndexPath(b.baseAddress, b.count, &length, handle, id, c) }
                        }
                    }
                    if length == 0 { return nil }
                    if length <= capacity { return buffer[0 ..< length].map { Int($0) } }
                    guard length <= ViewState.maxIndexPathLength, capacity == 16 else {
                        throw AmberError(.callbackFailed, "\(what) asked for room for \(UInt(bitPattern: length)) indexes; an index path has at most \(ViewState.maxIndexPathLength)")
                    }
                    capacity = length
                }
            }))
        o.associationContext?.release()
        o.associationContext = context
    }
}

// MARK: Reports
