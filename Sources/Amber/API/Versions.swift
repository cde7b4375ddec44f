// amber.h — Versions, status codes and errors, struct initialisers.

import AmberCore
import CAmber

/// The library's version number. Backs `amber_version_number`.
@c @implementation public func amber_version_number() -> CInt {
    CInt(amberVersionMajor * 1_000_000 + amberVersionMinor * 1000 + amberVersionPatch)
}

/// The library's version as text. Backs `amber_version_string`.
@c @implementation public func amber_version_string() -> UnsafePointer<CChar>? {
    staticCStrings[statusNames.count + 2]
}

/// The last failure's message on this thread. Backs `amber_error_last`.
@c @implementation public func amber_error_last() -> UnsafePointer<CChar>? {
    ThreadError.current.message.map { UnsafePointer($0) } ?? staticEmpty
}

/// The last failure's code on this thread. Backs `amber_error_last_code`.
@c @implementation public func amber_error_last_code() -> CInt {
    ThreadError.current.code
}

/// Forgets the last failure on this thread. Backs `amber_error_clear`.
@c @implementation public func amber_error_clear() {
    ThreadError.current.set(0, nil)
}

/// The name of a status code. Backs `amber_status_string`.
@c @implementation public func amber_status_string(_ status: CInt) -> UnsafePointer<CChar>? {
    staticStatusName(status)
}

/// Fills a store with zeros and its version. Backs `amber_store_init`.
@c @implementation public func amber_store_init(_ store: UnsafeMutablePointer<amber_store>?, _ version: CUnsignedInt) -> CInt {
    guarded {
        guard let store else { throw invalid("the store is NULL") }
        guard version == AMBER_STORE_VERSION else { throw invalid("amber_store version \(version) is not supported") }
        store.pointee = amber_store()
        store.pointee.version = version
    }
}

/// Fills engine options with the defaults. Backs `amber_engine_options_init`.
@c @implementation public func amber_engine_options_init(_ options: UnsafeMutablePointer<amber_engine_options>?, _ version: CUnsignedInt) -> CInt {
    guarded {
        guard let options else { throw invalid("the options are NULL") }
        guard version == AMBER_ENGINE_OPTIONS_VERSION else { throw invalid("amber_engine_options version \(version) is not supported") }
        options.pointee = amber_engine_options()
        options.pointee.version = version
    }
}

/// Fills object callbacks with NULLs. Backs `amber_object_callbacks_init`.
@c @implementation public func amber_object_callbacks_init(_ callbacks: UnsafeMutablePointer<amber_object_callbacks>?, _ version: CUnsignedInt) -> CInt {
    guarded {
        guard let callbacks else { throw invalid("the callbacks are NULL") }
        guard version == AMBER_OBJECT_CALLBACKS_VERSION else { throw invalid("amber_object_callbacks version \(version) is not supported") }
        callbacks.pointee = amber_object_callbacks()
        callbacks.pointee.version = version
    }
}

/// Fills a restoration class with NULLs. Backs `amber_restoration_class_init`.
@c @implementation public func amber_restoration_class_init(_ cls: UnsafeMutablePointer<amber_restoration_class>?, _ version: CUnsignedInt) -> CInt {
    guarded {
        guard let cls else { throw invalid("the restoration class is NULL") }
        guard version == AMBER_RESTORATION_CLASS_VERSION else { throw invalid("amber_restoration_class version \(version) is not supported") }
        cls.pointee = amber_restoration_class()
        cls.pointee.version = version
    }
}

/// Fills a blueprint factory with NULLs. Backs `amber_blueprint_factory_init`.
@c @implementation public func amber_blueprint_factory_init(_ factory: UnsafeMutablePointer<amber_blueprint_factory>?, _ version: CUnsignedInt) -> CInt {
    guarded {
        guard let factory else { throw invalid("the blueprint factory is NULL") }
        guard version == AMBER_BLUEPRINT_FACTORY_VERSION else { throw invalid("amber_blueprint_factory version \(version) is not supported") }
        factory.pointee = amber_blueprint_factory()
        factory.pointee.version = version
    }
}

/// Fills a delegate with NULLs. Backs `amber_delegate_init`.
@c @implementation public func amber_delegate_init(_ delegate: UnsafeMutablePointer<amber_delegate>?, _ version: CUnsignedInt) -> CInt {
    guarded {
        guard let delegate else { throw invalid("the delegate is NULL") }
        guard version == AMBER_DELEGATE_VERSION else { throw invalid("amber_delegate version \(version) is not supported") }
        delegate.pointee = amber_delegate()
        delegate.pointee.version = version
    }
}
