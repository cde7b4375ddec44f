"""Views (R1), their standard state (R17) and the model association of their data source (R18):
the view section of the header (amber/view.h).

A view given a kind keeps, besides what its encode callback writes, the standard state of that
kind: at preservation the engine asks ``read_view_state()`` for a ViewState and archives it under
keys of its own; at restoration, after the view's decode callback, it gives ``apply_view_state``
what was restored (a member left None was not archived, or restored as nothing). Text views are
asked ``text_length()`` first: a selected range that no longer fits is restored as none.

A table's or collection's data source may give a model association (``set_model_association``):
selected items and the first visible item are then archived as the identifiers of the model
objects they show, and turned back into index paths at restoration; an identifier that no longer
resolves is dropped and listed on the view's report record (``Record.dropped_identifiers``)."""
from __future__ import annotations

import ctypes
from ctypes import POINTER, c_int64
from typing import Any, ClassVar, List, NamedTuple, Optional, Protocol, Tuple

from . import _errors as E
from . import _ffi
from ._ffi import load
from .objects import EngineCore, Object
from .values import IndexPath, Kind, ViewField, ViewKind, c_text, py_text


class Point(NamedTuple):
    """A point (CGPoint)."""
    x: float
    y: float


class Size(NamedTuple):
    """A size (CGSize)."""
    width: float
    height: float


class Rect(NamedTuple):
    """A rectangle (CGRect)."""
    origin: Point
    size: Size


class Insets(NamedTuple):
    """Insets from each edge (UIEdgeInsets)."""
    top: float
    left: float
    bottom: float
    right: float


class Transform(NamedTuple):
    """An affine transform (CGAffineTransform): x' = a*x + c*y + tx, y' = b*x + d*y + ty."""
    a: float
    b: float
    c: float
    d: float
    tx: float
    ty: float


class TextRange(NamedTuple):
    """A range of a text (NSRange), in the unit the view counts its text in."""
    location: int
    length: int


class WebPage(NamedTuple):
    """A page of a web view's back/forward list: its URL and scroll position."""
    url: str
    scroll: Point


class ViewState:
    """A view's standard state (amber_view_state, R17): the members its kind keeps, None for a
    member not set. ``kind`` is the view's kind (set by Amber when it applies a state; ignored
    in the state a read returns).

    Scroll views, tables and collections: content_offset, content_inset, zoom_scale. Tables and
    collections also: selected_items, first_visible_item, editing. Text fields: selected_range;
    text views also editable. Image views: bounds, center, transform, anchor_point. Web views:
    pages (oldest first) and current_page (the index of the page shown).

    A plain class rather than a dataclass: the dataclasses module imports inspect, ast and dis,
    which were about a quarter of what ``import amber`` cost. It compares and prints as a
    dataclass would; ``MEMBERS`` lists the members after ``kind``, in the order of the
    constructor."""
    MEMBERS: ClassVar[Tuple[str, ...]] = (
        "content_offset", "content_inset", "zoom_scale", "selected_items", "first_visible_item", "editing",
        "selected_range", "editable", "bounds", "center", "transform", "anchor_point", "pages", "current_page")
    __slots__ = ("kind",) + MEMBERS

    def __init__(self, kind: ViewKind = ViewKind.NONE, content_offset: Optional[Point] = None,
                 content_inset: Optional[Insets] = None, zoom_scale: Optional[float] = None,
                 selected_items: Optional[Tuple[IndexPath, ...]] = None,
                 first_visible_item: Optional[IndexPath] = None, editing: Optional[bool] = None,
                 selected_range: Optional[TextRange] = None, editable: Optional[bool] = None,
                 bounds: Optional[Rect] = None, center: Optional[Point] = None,
                 transform: Optional[Transform] = None, anchor_point: Optional[Point] = None,
                 pages: Optional[Tuple[WebPage, ...]] = None, current_page: Optional[int] = None):
        self.kind = kind
        self.content_offset = content_offset
        self.content_inset = content_inset
        self.zoom_scale = zoom_scale
        self.selected_items = selected_items
        self.first_visible_item = first_visible_item
        self.editing = editing
        self.selected_range = selected_range
        self.editable = editable
        self.bounds = bounds
        self.center = center
        self.transform = transform
        self.anchor_point = anchor_point
        self.pages = pages
        self.current_page = current_page

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass without frozen=True

    def __repr__(self) -> str:
        members = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({members})"

    @property
    def fields(self) -> ViewField:
        """The members set, as AMBER_VIEW_FIELD_* bits."""
        bits = ViewField(0)
        for name in self.MEMBERS:
            if getattr(self, name) is not None:
                bits |= ViewField[name.upper()]
        return bits


def _index_path(path: IndexPath, target: _ffi.IndexPath, keep: List[Any]) -> None:
    array = (c_int64 * len(path))(*path)
    keep.append(array)
    target.indexes = ctypes.cast(array, POINTER(c_int64))
    target.length = len(path)


def _read_index_path(path: _ffi.IndexPath) -> IndexPath:
    return IndexPath(path.indexes[:path.length]) if path.length else IndexPath()


def fill_view_state(target: _ffi.ViewState, state: ViewState, keep: List[Any]) -> None:
    """Writes ``state`` into the amber_view_state Amber handed a read accessor, with the bits of
    the members set. ``keep`` receives the arrays and strings it points to: Amber copies them
    when the accessor returns, so they must outlive it."""
    if not isinstance(state, ViewState):
        raise TypeError(f"read_view_state must return an amber.ViewState, not {type(state).__name__}")
    if state.content_offset is not None:
        target.content_offset = _ffi.Point(*state.content_offset)
    if state.content_inset is not None:
        target.content_inset = _ffi.Insets(*state.content_inset)
    if state.zoom_scale is not None:
        target.zoom_scale = state.zoom_scale
    if state.selected_items is not None:
        items = (_ffi.IndexPath * len(state.selected_items))()
        keep.append(items)
        for item, path in zip(items, state.selected_items):
            _index_path(IndexPath(path), item, keep)
        target.selected_items = ctypes.cast(items, POINTER(_ffi.IndexPath))
        target.selected_count = len(state.selected_items)
    if state.first_visible_item is not None:
        _index_path(IndexPath(state.first_visible_item), target.first_visible_item, keep)
    if state.editing is not None:
        target.editing = 1 if state.editing else 0
    if state.selected_range is not None:
        target.selected_range = _ffi.Range(*state.selected_range)
    if state.editable is not None:
        target.editable = 1 if state.editable else 0
    if state.bounds is not None:
        origin, size = state.bounds
        target.bounds = _ffi.Rect(_ffi.Point(*origin), _ffi.Size(*size))
    if state.center is not None:
        target.center = _ffi.Point(*state.center)
    if state.transform is not None:
        target.transform = _ffi.Transform(*state.transform)
    if state.anchor_point is not None:
        target.anchor_point = _ffi.Point(*state.anchor_point)
    if state.pages is not None:
        pages = (_ffi.WebPage * len(state.pages))()
        keep.append(pages)
        for page, (url, scroll) in zip(pages, state.pages):
            text = c_text(url)
            keep.append(text)
            page.url = text
            page.scroll = _ffi.Point(*scroll)
        target.pages = ctypes.cast(pages, POINTER(_ffi.WebPage))
        target.page_count = len(state.pages)
    if state.current_page is not None:
        target.current_page = state.current_page
    target.fields |= int(state.fields)


def read_view_state(source: _ffi.ViewState) -> ViewState:
    """The ViewState of the amber_view_state Amber hands an apply accessor."""
    bits = ViewField(source.fields)
    state = ViewState(ViewKind(source.kind))
    if ViewField.CONTENT_OFFSET in bits:
        state.content_offset = Point(source.content_offset.x, source.content_offset.y)
    if ViewField.CONTENT_INSET in bits:
        i = source.content_inset
        state.content_inset = Insets(i.top, i.left, i.bottom, i.right)
    if ViewField.ZOOM_SCALE in bits:
        state.zoom_scale = source.zoom_scale
    if ViewField.SELECTED_ITEMS in bits:
        state.selected_items = tuple(_read_index_path(source.selected_items[i])
                                     for i in range(source.selected_count))
    if ViewField.FIRST_VISIBLE_ITEM in bits:
        state.first_visible_item = _read_index_path(source.first_visible_item)
    if ViewField.EDITING in bits:
        state.editing = bool(source.editing)
    if ViewField.SELECTED_RANGE in bits:
        state.selected_range = TextRange(source.selected_range.location, source.selected_range.length)
    if ViewField.EDITABLE in bits:
        state.editable = bool(source.editable)
    if ViewField.BOUNDS in bits:
        b = source.bounds
        state.bounds = Rect(Point(b.origin.x, b.origin.y), Size(b.size.width, b.size.height))
    if ViewField.CENTER in bits:
        state.center = Point(source.center.x, source.center.y)
    if ViewField.TRANSFORM in bits:
        t = source.transform
        state.transform = Transform(t.a, t.b, t.c, t.d, t.tx, t.ty)
    if ViewField.ANCHOR_POINT in bits:
        state.anchor_point = Point(source.anchor_point.x, source.anchor_point.y)
    if ViewField.PAGES in bits:
        state.pages = tuple(WebPage(py_text(source.pages[i].url) or "",
                                    Point(source.pages[i].scroll.x, source.pages[i].scroll.y))
                            for i in range(source.page_count))
    if ViewField.CURRENT_PAGE in bits:
        state.current_page = source.current_page
    return state


class ModelAssociation(Protocol):
    """A data source as a model association (UIDataSourceModelAssociation, R18): the two methods
    a table's or collection's data source implements."""

    def identifier_for_index_path(self, view: "View", path: IndexPath) -> Optional[str]:
        """The identifier of the model object the item at ``path`` shows, or None (then the item
        is archived as its index path)."""

    def index_path_for_identifier(self, view: "View", identifier: str) -> Optional[IndexPath]:
        """The index path of the item that shows model object ``identifier`` now, or None if no
        item shows it (the identifier is then dropped, and listed on the view's report record)."""


class _AccessorsHolder(_ffi.Holder):
    """The context of a view's accessors: the view, and what its last read state points to."""
    __slots__ = ("view", "keep")

    def __init__(self, view: "View"):
        self.view = view
        self.keep: List[Any] = []

    def c_read_view(self, state: _ffi.ViewState) -> None:
        keep: List[Any] = []
        fill_view_state(state, self.view.read_view_state(), keep)
        self.keep = keep  # until the next read, or until Amber frees the context

    def c_apply_view(self, state: _ffi.ViewState) -> None:
        self.view.apply_view_state(read_view_state(state))

    def c_text_length(self) -> int:
        length = int(self.view.text_length())
        if length < 0:
            raise ValueError(f"text_length() must not be negative, not {length}")
        return length


class _AssociationHolder(_ffi.Holder):
    """The context of a model association: the view and its data source. ``identifier`` keeps
    the last identifier given to Amber alive until it copies it; ``pending`` the index path
    Amber had no room for, which it asks for again at once."""
    __slots__ = ("view", "source", "identifier", "pending")

    def __init__(self, view: "View", source: ModelAssociation):
        self.view = view
        self.source = source
        self.identifier: Optional[bytes] = None
        self.pending: Optional[Tuple[bytes, IndexPath]] = None

    def c_identifier_for_index_path(self, indexes: Tuple[int, ...]) -> Optional[bytes]:
        identifier = self.source.identifier_for_index_path(self.view, IndexPath(indexes))
        self.identifier = None if identifier is None else c_text(identifier)
        return self.identifier

    def c_index_path_for_identifier(self, identifier: bytes, capacity: int) -> IndexPath:
        pending = self.pending
        self.pending = None
        if pending is not None and pending[0] == identifier:
            return pending[1]  # Amber's second call, with room for it
        found = self.source.index_path_for_identifier(self.view, identifier.decode("utf-8", "surrogateescape"))
        path = IndexPath() if found is None else IndexPath(found)
        if len(path) > capacity:
            self.pending = (identifier, path)
        return path


class View(Object):
    """A view belonging to a controller (R1). Give it a kind of standard state (R17) with
    ``view_kind=`` (or a subclass's ``standard_state``) and implement ``read_view_state``,
    ``apply_view_state`` and, for text fields and text views, ``text_length``."""
    __slots__ = ()
    kind = Kind.VIEW
    #: The kind of standard state a subclass's instances keep (R17); NONE: only what encode writes.
    standard_state: ClassVar[ViewKind] = ViewKind.NONE

    def __init__(self, engine: EngineCore, identifier: Optional[str] = None, *, view_kind: Optional[ViewKind] = None,
                 **options: Any):
        super().__init__(engine, identifier, **options)
        kind = self.standard_state if view_kind is None else view_kind
        if kind != ViewKind.NONE:
            self.set_view_kind(kind)

    # -- the accessors: override these --
    def read_view_state(self) -> ViewState:
        """The view's standard state now, at preservation (R17)."""
        raise NotImplementedError(f"{type(self).__name__} keeps a standard state but has no read_view_state()")

    def apply_view_state(self, state: ViewState) -> None:
        """Applies the restored standard state, at restoration (R17)."""
        raise NotImplementedError(f"{type(self).__name__} keeps a standard state but has no apply_view_state()")

    def text_length(self) -> int:
        """Text fields and text views: the length of the text shown now, in the unit of its
        selected ranges (UTF-16 code units in UIKit)."""
        raise NotImplementedError(f"{type(self).__name__} is a text view but has no text_length()")

    # -- the kind and the association --
    @property
    def view_kind(self) -> ViewKind:
        """The kind of standard state it keeps (amber_object_view_kind); NONE for none."""
        kind = int(load().amber_object_view_kind(self._handle()))
        if kind < 0:
            raise _ffi.error(int(load().amber_error_last_code()) or E.INVALID_ARGUMENT)
        return ViewKind(kind)

    def set_view_kind(self, kind: Optional[ViewKind]) -> None:
        """Gives the view a kind of standard state and its accessors (its own read_view_state,
        apply_view_state and text_length), or removes them (None or ViewKind.NONE)."""
        handle = self._handle()
        if kind is None or kind == ViewKind.NONE:
            with E.callbacks_raised():
                load().amber_object_set_view_accessors(handle, 0, None, None, _ffi.CTX_FREE)
            return
        accessors = _ffi.ViewAccessors(_ffi.VIEW_ACCESSORS_VERSION, *_ffi.T_VIEW)
        box = _AccessorsHolder(self)
        key = box.register(self.engine)
        try:
            with E.callbacks_raised():
                load().amber_object_set_view_accessors(handle, int(kind), ctypes.byref(accessors), key, _ffi.CTX_FREE)
        except BaseException:
            box.unregister()
            raise

    def set_model_association(self, source: Optional[ModelAssociation]) -> None:
        """Gives the view the model association of its data source (R18): an object with the two
        methods of ModelAssociation. None removes it (items are then archived as index paths)."""
        handle = self._handle()
        if source is None:
            with E.callbacks_raised():
                load().amber_object_set_model_association(handle, None, None, _ffi.CTX_FREE)
            return
        association = _ffi.ModelAssociation(_ffi.MODEL_ASSOCIATION_VERSION, *_ffi.T_MODEL)
        box = _AssociationHolder(self, source)
        key = box.register(self.engine)
        try:
            with E.callbacks_raised():
                load().amber_object_set_model_association(handle, ctypes.byref(association), key, _ffi.CTX_FREE)
        except BaseException:
            box.unregister()
            raise
