"""Views' standard state (R17), model association (R18), snapshots (R21) and plugins, from Python,
after bindings/c/tests/test_views.c: one engine preserves a view of every kind; the item store
changes (a row deleted before a selected one, a selected one deleted, one inserted); a second
engine restores it. Each test names its rule."""
import os
import shutil
import subprocess

import pytest

import amber
from amber import IndexPath, Point, ViewKind, ViewState
from conftest import Delegate, Screen

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

STORE_RUN1 = ["A", "B", "C", "D", "E", "F", "G", "H"]
STORE_RUN2 = ["A", "C", "D", "E", "G", "H", "X"]  # B (before the selected D) and F (selected) deleted


class Source:
    """A data source whose index paths are ``depth`` long: depth-1 leading indexes 1, 2, ...,
    then the row of the model object in ``store``."""

    def __init__(self, store, depth):
        self.store, self.depth = store, depth
        self.asked = []

    def path(self, row):
        return IndexPath(*range(1, self.depth), row)

    def identifier_for_index_path(self, view, path):
        assert isinstance(view, amber.View) and isinstance(path, IndexPath)
        return self.store[path[-1]] if len(path) == self.depth and 0 <= path[-1] < len(self.store) else None

    def index_path_for_identifier(self, view, identifier):
        self.asked.append(identifier)
        return self.path(self.store.index(identifier)) if identifier in self.store else None


class StandardView(amber.View):
    """A view that reads ``state`` at preservation and records what apply receives."""

    def __init__(self, engine, identifier, kind, state=None, text_length=0):
        super().__init__(engine, identifier, class_name="View", view_kind=kind)
        self.state = state
        self.applied = None
        self.reads = 0
        self.length = text_length

    def read_view_state(self):
        self.reads += 1
        return self.state

    def apply_view_state(self, state):
        self.applied = state

    def text_length(self):
        return self.length


def table_state(source):
    return ViewState(content_offset=Point(12.5, 340.0), content_inset=amber.Insets(64, 0, 49, 0), zoom_scale=1.5,
                     selected_items=(source.path(3), source.path(5)),  # D and F
                     first_visible_item=source.path(2), editing=True)  # C


STATES = {
    "Scroll": (ViewKind.SCROLL, ViewState(content_offset=Point(1, 2), content_inset=amber.Insets(1, 2, 3, 4),
                                          zoom_scale=2.0)),
    "Grid": (ViewKind.COLLECTION, ViewState(selected_items=(IndexPath(7), IndexPath(1, 4), IndexPath(2, 0, 9)),
                                            first_visible_item=IndexPath(2, 0, 9))),
    "Field": (ViewKind.TEXT_FIELD, ViewState(selected_range=amber.TextRange(10, 6))),
    "Notes": (ViewKind.TEXT_VIEW, ViewState(selected_range=amber.TextRange(6, 5), editable=False)),
    "Photo": (ViewKind.IMAGE, ViewState(bounds=amber.Rect(Point(0, 0), amber.Size(320, 240)), center=Point(160, 200),
                                        transform=amber.Transform(0.5, 0.1, -0.1, 0.5, 10, 20),
                                        anchor_point=Point(0.25, 0.75))),
    "Web": (ViewKind.WEB, ViewState(pages=(amber.WebPage("https://example.org/", Point(0, 0)),
                                           amber.WebPage("https://example.org/items", Point(0, 1200)),
                                           amber.WebPage("https://example.org/items/d", Point(0, 80))),
                                    current_page=1)),
}
TEXT_LENGTHS = {"Field": 16, "Notes": 11}


def build(engine, store, depths=(2, 1, 20), associate=True):
    """The interface: Nav/Items with a view of every kind; tables with data sources of
    ``depths``."""
    nav = engine.add_root(Screen(engine, "Nav"))
    items = nav.add_child(Screen(engine, "Items"))
    views, sources = {}, {}
    for depth in depths:
        name = f"Table{depth}"
        source = sources[name] = Source(store, depth)
        view = views[name] = items.add_view(StandardView(engine, name, ViewKind.TABLE, table_state(source)))
        if associate:
            view.set_model_association(source)
    for name, (kind, state) in STATES.items():
        views[name] = items.add_view(StandardView(engine, name, kind, state, TEXT_LENGTHS.get(name, 0)))
    return views, sources


def test_r17_view_state_round_trip_per_kind(open_engine):  # R17
    e = open_engine(Delegate())
    views, _ = build(e, STORE_RUN1)
    assert {v.view_kind for v in views.values()} == {ViewKind.TABLE} | {k for k, _ in STATES.values()}
    assert e.view("Plain").view_kind == ViewKind.NONE
    report = e.preserve()
    assert report.saved and all(v.reads == 1 for v in views.values())
    assert all(report.entry(f"Nav/Items/{name}").preserved for name in views)
    e.close()
    e2 = open_engine(Delegate())
    back, _ = build(e2, STORE_RUN1)
    restored = e2.launch()
    assert all(restored.outcome(f"Nav/Items/{name}") == amber.Outcome.RESTORED for name in back)
    for name, (kind, state) in STATES.items():
        expected = ViewState(kind, **{f: getattr(state, f) for f in ViewState.MEMBERS})
        assert back[name].applied == expected, name
        assert back[name].applied.fields == state.fields
    table = back["Table2"].applied
    assert table.kind == ViewKind.TABLE and table.editing is True and table.zoom_scale == 1.5
    assert table.selected_items == (IndexPath(1, 3), IndexPath(1, 5)) and table.first_visible_item == IndexPath(1, 2)
    assert table.selected_range is None and table.pages is None  # members its kind does not keep


def test_r17_view_state_compares_and_prints_by_its_members():  # R17, issue 40 item 6
    """ViewState is a plain class (no dataclasses at import): equal when every member is,
    positional and keyword construction alike, unhashable as it is mutable, and printed whole."""
    state = ViewState(ViewKind.TABLE, Point(1, 2), zoom_scale=1.5, selected_items=(IndexPath(0, 3),))
    same = ViewState(kind=ViewKind.TABLE, content_offset=Point(1, 2), zoom_scale=1.5,
                     selected_items=(IndexPath(0, 3),))
    assert state == same and not state != same
    same.editing = True
    assert state != same and state != ViewState() and state != (ViewKind.TABLE,)
    field = amber.ViewField
    assert state.fields == field.CONTENT_OFFSET | field.ZOOM_SCALE | field.SELECTED_ITEMS
    with pytest.raises(TypeError):
        hash(state)
    with pytest.raises(AttributeError):
        state.zoom = 2.0  # a misspelt member is an error, not a silent new attribute
    text = repr(state)
    assert text.startswith("ViewState(kind=<ViewKind.TABLE") and "zoom_scale=1.5" in text and "current_page=None" in text
    assert ViewState.MEMBERS == ViewState.__init__.__code__.co_varnames[2:2 + len(ViewState.MEMBERS)]


def test_r17_text_range_that_no_longer_fits_is_restored_as_none(open_engine):  # R17
    e = open_engine(Delegate())
    build(e, STORE_RUN1)
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    back, _ = build(e2, STORE_RUN1)
    back["Field"].length = 12  # the text got shorter: 10 + 6 no longer fits
    e2.launch()
    assert back["Field"].applied.selected_range is None and back["Notes"].applied.selected_range == (6, 5)


def test_r17_read_accessor_refusal_leaves_view_out(open_engine):  # R17, R28
    e = open_engine(Delegate())
    nav = e.add_root(Screen(e, "Nav"))
    nav.add_view(StandardView(e, "Ok", ViewKind.SCROLL, ViewState(zoom_scale=1.0)))
    bad_range = nav.add_view(StandardView(e, "Range", ViewKind.SCROLL, ViewState(selected_range=amber.TextRange(0, 1))))
    bad_zoom = nav.add_view(StandardView(e, "Zoom", ViewKind.SCROLL, ViewState(zoom_scale=0.0)))
    wrong = nav.add_view(StandardView(e, "Wrong", ViewKind.SCROLL, {"zoom": 1}))
    raises = nav.add_view(StandardView(e, "Raises", ViewKind.SCROLL))
    raises.read_view_state = lambda: 1 / 0
    report = e.preserve()
    assert report.saved and report.entry("Nav/Ok").preserved
    for view, error in ((bad_range, None), (bad_zoom, None), (wrong, TypeError), (raises, ZeroDivisionError)):
        entry = report.entry(f"Nav/{view.identifier}")
        assert entry.left_out == amber.LeftOut.ENCODE_FAILED, entry
        if error is None:
            assert "AMBER_INVALID_ARGUMENT" in entry.message, entry.message  # Amber refused the state
        else:
            assert isinstance(entry.error, error) and type(entry.error).__name__ in entry.message


def test_r17_view_kind_changes_and_errors(open_engine):  # R17
    e = open_engine(Delegate())
    view = StandardView(e, "V", ViewKind.SCROLL, ViewState())
    assert view.view_kind == ViewKind.SCROLL
    view.set_view_kind(ViewKind.WEB)
    assert view.view_kind == ViewKind.WEB
    view.set_view_kind(None)
    assert view.view_kind == ViewKind.NONE
    with pytest.raises(amber.InvalidArgumentError):
        amber.View(e, "Bad", view_kind=99)  # no such kind: Amber refuses it
    view.free()
    with pytest.raises(amber.MisuseError):
        view.view_kind


def test_r18_model_association_and_dropped_identifiers(open_engine):  # R18, R16
    e = open_engine(Delegate())
    build(e, STORE_RUN1)
    assert e.preserve().saved
    e.close()
    e2 = open_engine(Delegate())
    back, sources = build(e2, STORE_RUN2)
    report = e2.launch()
    by_path = {r.path_string: r for r in report}
    for name, depth in (("Table2", 2), ("Table1", 1), ("Table20", 20)):
        source = sources[name]
        state = back[name].applied
        # D moved from row 3 to row 2, C from 2 to 1; F is gone: dropped and reported
        assert state.selected_items == (source.path(2),) and state.first_visible_item == source.path(1), name
        assert by_path[f"Nav/Items/{name}"].dropped_identifiers == ("F",), name
        assert by_path[f"Nav/Items/{name}"].outcome == amber.Outcome.RESTORED
        assert source.asked.count("D") == 1  # a path longer than Amber's room is not asked twice
    assert by_path["Nav/Items/Scroll"].dropped_identifiers == ()


def test_r18_without_an_association_items_are_index_paths(open_engine):  # R18
    e = open_engine(Delegate())
    build(e, STORE_RUN1, associate=False)
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    back, sources = build(e2, STORE_RUN2, associate=False)
    e2.launch()
    assert back["Table2"].applied.selected_items == (sources["Table2"].path(3), sources["Table2"].path(5))


def test_r18_association_removed_drops_every_identifier(open_engine):  # R18
    e = open_engine(Delegate())
    build(e, STORE_RUN1, depths=(2,))
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    back, _ = build(e2, STORE_RUN1, depths=(2,))
    back["Table2"].set_model_association(None)
    report = e2.launch()
    record = [r for r in report if r.path_string == "Nav/Items/Table2"][0]
    assert record.dropped_identifiers == ("D", "F", "C")
    assert back["Table2"].applied.selected_items is None or back["Table2"].applied.selected_items == ()


PNG = b"\x89PNG\r\n\x1a\namber-snap"


def test_r21_snapshot_set_read_and_ignored(tmp_path):  # R21, R20, R14
    seen = {}

    class Peeks(Delegate):
        def should_restore(self, engine, decoder):
            seen["during"] = engine.snapshot()
            return super().should_restore(engine, decoder)

    def engine(delegate=None):
        return amber.Engine("org.example.snap", state_directory=str(tmp_path), delegate=delegate or Peeks())
    with engine() as e:
        assert e.snapshot() is None  # no archive
        e.add_root(Screen(e, "Root"))
        e.set_snapshot(PNG)
        assert e.preserve().saved
    assert PNG not in (tmp_path / "state.archive").read_bytes()  # protected with the archive (R20)
    with engine() as e:
        assert e.snapshot() == PNG  # before launch: read from the store
        e.add_root(Screen(e, "Root"))
        assert not e.launch().fresh
        assert seen["during"] == PNG  # during restoration: the one being restored
        assert e.snapshot() is None  # discarded with the archive (R14)
        e.set_snapshot(PNG)
        e.ignore_snapshot()
        assert e.preserve().saved
    with engine() as e:
        assert e.snapshot() is None  # the host asked to ignore it
        e.set_snapshot(PNG)
        e.set_snapshot(None)  # removed
        e.add_root(Screen(e, "Root"))
        e.launch()
        assert e.preserve().saved
    with engine() as e:
        assert e.snapshot() is None
        with pytest.raises(amber.LimitExceededError):
            e.set_snapshot(b"\0" * ((64 << 20) + 1))


@pytest.mark.skipif(shutil.which("cc") is None or not os.path.isdir(os.path.join(ROOT, "include")),
                    reason="no C compiler, or no headers beside the tests")
def test_plugin_loads_and_registers(open_engine, tmp_path):
    """A plugin library (bindings/c/tests/plugin_sample.c) registers the restoration class
    "PluginClass" through the C API when the engine loads it."""
    plugin = tmp_path / "plugin_sample.so"
    library = os.path.dirname(amber.library_path())
    subprocess.run(["cc", "-shared", "-fPIC", "-I", os.path.join(ROOT, "include"),
                    os.path.join(ROOT, "bindings", "c", "tests", "plugin_sample.c"), "-o", str(plugin),
                    "-L", library, "-lamber", f"-Wl,-rpath,{library}"], check=True)
    e = open_engine(Delegate())
    e.load_plugin(str(plugin))
    with pytest.raises(amber.DuplicateError):
        e.register_restoration_class("PluginClass", lambda engine, path, decoder: None)
    e.add_root(Screen(e, "Root", restoration_class="PluginClass"))
    assert e.preserve().saved
    e.close()
    e2 = open_engine(Delegate())
    e2.load_plugin(str(plugin))
    assert e2.launch().outcome("Root") == amber.Outcome.DECLINED_BY_CLASS  # the plugin's make declines
    with pytest.raises(amber.NotFoundError) as info:
        e2.load_plugin(str(tmp_path / "missing.so"))
    assert "missing.so" in str(info.value)
