"""Where Amber follows UIKit exactly, and where it is never silent, seen from Python: manual
references from the application coder, the delegate asked for controllers only, identifiers never
rewritten, declined subtrees, the preservation report, the log, and the smaller rules of issue 25.
Each test names its rule."""
import logging
import os
import subprocess
import sys
import textwrap

import pytest

import amber
from conftest import Delegate, Screen

PAGES = ("list", "detail", "edit")
SECRETS = ("hunter2-secret-value", "password-key-name", "4242424242", "distinctive-key")


def excluded_navigation(e, states=True):
    """The seeds' case: a window (identified root) holding a navigation stack without an
    identifier, whose three children have identifiers: the walk leaves all four out (R2)."""
    window = e.add_root(Screen(e, "window", {"selectedRow": 7} if states else None))
    nav = window.add_child(e.controller(None, "UINavigationController", stack=True))
    children = [nav.add_child(Screen(e, page, {"title": f"page {i}"} if states else None))
                for i, page in enumerate(PAGES)]
    return window, nav, children


def package_env():
    """The environment for a subprocess that imports this amber package and its library."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(amber.__file__)))] +
        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    if os.path.isfile(amber.library_path()):
        env["AMBER_LIBRARY"] = amber.library_path()
    return env


def run_python(code, env=None, check=True):
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env or package_env(),
                         capture_output=True, text=True, timeout=120)
    if check:
        assert out.returncode == 0, out.stderr
    return out


# ---- R4: references from the application coder --------------------------------------------------

@pytest.mark.parametrize("where", ["will_encode", "should_save"])
def test_r4_the_delegate_saves_the_children_of_an_excluded_navigation_controller(open_engine, where):  # R4
    e = open_engine(Delegate())
    window, nav, children = excluded_navigation(e)

    class Saves(Delegate):
        def references(self, coder):
            for i, child in enumerate(children):
                coder.encode_object(f"stack{i}", child)

        def should_save(self, engine, coder):
            if where == "should_save":
                self.references(coder)
            return True

        def will_encode(self, engine, coder):
            if where == "will_encode":
                self.references(coder)
    e.set_delegate(Saves())
    report = e.preserve()
    # Each referenced child is preserved with its state; its path skips the ancestor without an
    # identifier (R4); the container itself stays left out (R2).
    assert [(x.path, x.class_name) for x in report.preserved] == \
        [(("window",), "Screen"), (("window", "list"), "Screen"), (("window", "detail"), "Screen"),
         (("window", "edit"), "Screen")]
    assert [(x.path, x.left_out) for x in report.left_out] == [(("window",), amber.LeftOut.NO_IDENTIFIER)]
    e.close()

    # The next launch: the default set-up makes the window and a fresh navigation controller;
    # the delegate remakes the children (R10 step 2), did_decode pushes them back in order.
    e2 = open_engine(Delegate())
    window2 = e2.add_root(Screen(e2, "window"))
    nav2 = window2.add_child(e2.controller(None, "UINavigationController", stack=True))
    asked, pushed, made = [], [], {}

    class Restores(Delegate):
        def object_for_path(self, engine, path, decoder):
            asked.append(path)
            if len(path) != 2:
                return None  # the window is found where it is (R10 step 3)
            made[path[-1]] = Screen(engine, path[-1], class_name=decoder.record.class_name)
            return made[path[-1]]

        def did_decode(self, engine, decoder):
            super().did_decode(engine, decoder)
            for i in range(3):
                child = decoder.decode_object(f"stack{i}")  # from the application decoder (R4)
                nav2.add_child(child)
                pushed.append(child)
    d = Restores()
    e2.set_delegate(d)
    restored = e2.launch()
    assert [(r.path, r.outcome) for r in restored] == \
        [(("window",), amber.Outcome.RESTORED)] + [(("window", p), amber.Outcome.RESTORED) for p in PAGES]
    assert asked == [("window",), ("window", "list"), ("window", "detail"), ("window", "edit")]
    assert pushed == [made[p] for p in PAGES] and [c.identifier for c in pushed] == list(PAGES)
    assert [c.decoded for c in pushed] == [{"title": f"page {i}"} for i in range(3)]
    assert window2.decoded == {"selectedRow": 7} and d.calls[-2:] == ["did_decode", "did_finish_launching"]
    assert all(c.path is None for c in pushed)  # pushed under the container without an identifier


def test_r4_a_reference_needs_an_identifier_of_its_own(open_engine, store):  # R4
    e = open_engine(Delegate())
    window, nav, _ = excluded_navigation(e)

    class RefersToTheContainer(Delegate):
        def will_encode(self, engine, coder):
            coder.encode_object("nav", nav)  # no identifier: refused, and the preservation with it
    e.set_delegate(RefersToTheContainer())
    with pytest.raises(amber.InvalidArgumentError) as info:
        e.preserve()
    assert isinstance(info.value, ValueError) and store.data is None
    report = info.value.amber_preservation  # R28: a preserve that saved nothing is never silent
    assert report.not_saved == amber.NotSaved.FAILED and report is e.last_preservation
    assert report.message.startswith("the save failed, the previous archive is kept: the delegate's will_encode "
                                     "callback returned 1 (AMBER_INVALID_ARGUMENT): InvalidArgumentError: the "
                                     "referenced object (UINavigationController) has no restoration identifier")


# ---- R10: the delegate is asked for controllers only; lookups read the record -------------------

def test_r10_the_delegate_is_asked_for_controllers_only_and_reads_the_record(open_engine):  # R10
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "root", {"title": "r"}, class_name="RootController"))
    detail = root.add_child(Screen(e, "detail", {"title": "d"}, class_name="DetailController",
                                   blueprint="Main/Detail"))
    detail.add_view(Screen(e, "scroll", {"title": "s"}, class_name="UIScrollView", kind=amber.Kind.VIEW))
    assert e.preserve().saved
    e.close()

    e2 = open_engine(Delegate())
    asked, views = [], []

    class MakesAnything(Delegate):
        def object_for_path(self, engine, path, decoder):
            record = decoder.record
            asked.append((path, record.kind, record.class_name, record.blueprint, record.position))
            # Written as in the seeds: a controller for any path it is given.
            made = Screen(engine, path[-1], class_name=record.class_name)
            if path[-1] == "detail":
                views.append(made.add_view(Screen(engine, "scroll", class_name="UIScrollView",
                                                  kind=amber.Kind.VIEW)))
            return made

        def should_restore(self, engine, decoder):
            with pytest.raises(amber.InvalidArgumentError):
                decoder.record  # the application decoder has no record
            return super().should_restore(engine, decoder)
    e2.set_delegate(MakesAnything())
    report = e2.launch()
    assert asked == [(("root",), amber.Kind.CONTROLLER, "RootController", None, 0),
                     (("root", "detail"), amber.Kind.CONTROLLER, "DetailController", "Main/Detail", 0)]
    assert [(r.path, r.kind, r.outcome) for r in report] == [
        (("root",), amber.Kind.CONTROLLER, amber.Outcome.RESTORED),
        (("root", "detail"), amber.Kind.CONTROLLER, amber.Outcome.RESTORED),
        (("root", "detail", "scroll"), amber.Kind.VIEW, amber.Outcome.RESTORED)]  # found in its controller
    assert report.records[2].object is views[0] and views[0].decoded == {"title": "s"}


def test_r10_restoration_classes_and_blueprint_factories_read_the_record(open_engine):  # R10
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "root", class_name="RootController", restoration_class="Screens"))
    root.add_child(Screen(e, "printed", class_name="PrintedController", blueprint="Main/Printed"))
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    seen = []

    @e2.register_restoration_class("Screens")
    def screens(engine, path, decoder):
        seen.append(("class", path, decoder.record))
        return Screen(engine, None, class_name=decoder.record.class_name)

    @e2.register_blueprint_factory("Main")
    def main(engine, blueprint_id, path, decoder):
        seen.append(("blueprint", path, decoder.record))
        return Screen(engine, None, class_name=decoder.record.class_name)
    report = e2.launch()
    assert seen == [("class", ("root",), amber.RecordInfo(amber.Kind.CONTROLLER, "RootController", None, 0)),
                    ("blueprint", ("root", "printed"),
                     amber.RecordInfo(amber.Kind.CONTROLLER, "PrintedController", "Main/Printed", 0))]
    assert [r.outcome for r in report] == [amber.Outcome.RESTORED] * 2


# ---- R3: identifiers never rewritten ------------------------------------------------------------

def test_r3_same_identifiers_and_lookalikes_in_a_stack_all_restore(open_engine):  # R3
    e = open_engine(Delegate())
    nav = e.add_root(Screen(e, "nav", stack=True))
    for identifier, title in (("A", "first A"), ("A", "second A"), ("A#1", "the real A#1")):
        nav.add_child(Screen(e, identifier, {"title": title}, restoration_class="Pages"))
    report = e.preserve()
    assert [(tuple(x.path), x.position) for x in report.preserved] == \
        [(("nav",), 0), (("nav", "A"), 0), (("nav", "A"), 1), (("nav", "A#1"), 0)]
    # R3: a path carries its position: the two "A" are told apart by their paths alone
    assert [x.path for x in report.preserved][1:3] == [amber.Path(("nav", "A")), amber.Path(("nav", "A"), 1)]
    assert report.left_out == [] and e.last_duplicates == []
    e.close()

    e2 = open_engine(Delegate())
    e2.add_root(Screen(e2, "nav", stack=True))
    positions, made = [], []

    @e2.register_restoration_class("Pages")
    def pages(engine, path, decoder):
        positions.append(decoder.record.position)
        assert path.position == decoder.record.position  # the path given carries it too (R3)
        made.append(Screen(engine, path[-1]))  # the last path component: the identifier as set
        return made[-1]
    restored = e2.launch()
    assert positions == [0, 1, 0]
    assert [(tuple(r.path), r.position, r.outcome) for r in restored] == [
        (("nav",), 0, amber.Outcome.RESTORED), (("nav", "A"), 0, amber.Outcome.RESTORED),
        (("nav", "A"), 1, amber.Outcome.RESTORED), (("nav", "A#1"), 0, amber.Outcome.RESTORED)]
    assert [m.identifier for m in made] == ["A", "A", "A#1"]
    assert [m.decoded for m in made] == [{"title": "first A"}, {"title": "second A"}, {"title": "the real A#1"}]
    assert restored.outcome("nav/A", position=1) == restored.outcome("nav/A#1") == amber.Outcome.RESTORED
    assert restored.outcome("nav/A", position=2) is None


def test_r3_a_duplicate_names_the_object_kept(open_engine):  # R3, R28
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "root"))
    root.add_child(Screen(e, "same", class_name="FirstController"))
    root.add_child(Screen(e, "same", class_name="SecondController"))
    report = e.preserve()
    dropped = report.left_out
    assert [(x.path, x.class_name, x.left_out) for x in dropped] == \
        [(("root", "same"), "SecondController", amber.LeftOut.DUPLICATE_PATH)]
    assert dropped[0].message == "duplicate path; kept /root/same (FirstController)"
    assert e.last_duplicates == ["root/same"]


# ---- R10: nothing under a declined object is looked up -------------------------------------------

def test_r10_nothing_under_a_declined_object_is_looked_up_also_by_reference(open_engine):  # R10
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "root", restoration_class="Declining"))
    kept = root.add_child(Screen(e, "tab"))
    twin = root.add_child(Screen(e, "tab"))  # a duplicate: left out with what is under it (R3)...
    hidden = twin.add_child(Screen(e, "hidden", restoration_class="Hidden"))
    kept.encode_restorable_state = lambda coder: coder.encode_object("hidden", hidden)  # ...but referenced (R4)
    report = e.preserve()
    assert [x.path for x in report.preserved] == [("root",), ("root", "tab"), ("root", "tab", "hidden")]
    assert report.entry("root/tab").preserved and e.last_duplicates == ["root/tab"]
    e.close()

    e2 = open_engine(Delegate())
    looked_up = []

    def lookup(name):
        def make(engine, path, decoder):
            looked_up.append((name, path))
            return None if name == "Declining" else Screen(engine, path[-1])
        return make
    e2.register_restoration_class("Declining", lookup("Declining"))
    e2.register_restoration_class("Hidden", lookup("Hidden"))

    class Asks(Delegate):
        def object_for_path(self, engine, path, decoder):
            return lookup("delegate")(engine, path, decoder)
    e2.set_delegate(Asks())
    restored = e2.launch()
    assert looked_up == [("Declining", ("root",))]
    assert [(r.path, r.outcome) for r in restored] == [
        (("root",), amber.Outcome.DECLINED_BY_CLASS), (("root", "tab"), amber.Outcome.LEFT_OUT),
        (("root", "tab", "hidden"), amber.Outcome.LEFT_OUT)]


# ---- R28: the preservation report ---------------------------------------------------------------

def test_r28_the_report_names_identified_screens_under_an_unidentified_container(open_engine):  # R28
    e = open_engine(Delegate())
    window, nav, _ = excluded_navigation(e)
    source = e.plain_object("source", "DataSource")
    source.set_restoration_parent(nav)
    cursor = e.plain_object("cursor", "Cursor")
    cursor.set_restoration_parent(window)
    report = e.preserve()
    assert report.saved and report.not_saved == amber.NotSaved.NONE and report.message == ""
    assert [(x.path, x.size > 0) for x in report.preserved] == [(("window",), True)]
    container = "an ancestor has no restoration identifier (/window/(UINavigationController))"
    assert [(x.path, x.class_name, x.kind, x.left_out, x.message) for x in report.left_out] == [
        (("window",), "UINavigationController", amber.Kind.CONTROLLER, amber.LeftOut.NO_IDENTIFIER,
         "no restoration identifier"),
        (("window", "list"), "Screen", amber.Kind.CONTROLLER, amber.LeftOut.ANCESTOR_WITHOUT_IDENTIFIER, container),
        (("window", "detail"), "Screen", amber.Kind.CONTROLLER, amber.LeftOut.ANCESTOR_WITHOUT_IDENTIFIER, container),
        (("window", "edit"), "Screen", amber.Kind.CONTROLLER, amber.LeftOut.ANCESTOR_WITHOUT_IDENTIFIER, container),
        (("window", "source"), "DataSource", amber.Kind.OBJECT, amber.LeftOut.ANCESTOR_WITHOUT_IDENTIFIER,
         container),
        (("window", "cursor"), "Cursor", amber.Kind.OBJECT, amber.LeftOut.NOT_REFERENCED,
         "a plain object that nothing referenced")]
    text = str(report)
    assert text.startswith(f"saved 1 objects in {report.size} bytes\n")
    assert f"  left out /window/list (Screen): {container}" in text.split("\n")
    assert report.size > report.preserved[0].size  # the sealed archive, envelope included
    assert e.last_preservation is report


def test_r28_an_encode_callback_that_raises_leaves_out_only_its_object(open_engine, store):  # R28
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "root", {"selectedRow": 1}))
    bad = root.add_child(Screen(e, "bad", {"title": "never saved"}))
    bad.add_child(Screen(e, "under", {"title": "under"}))
    root.add_child(Screen(e, "after", {"title": "after"}))

    def fails(coder):
        coder["title"] = "half written"  # taken back: an archive is never half-written
        raise ValueError("the model is gone")
    bad.encode_restorable_state = fails
    report = e.preserve()
    assert report.saved and [x.path for x in report.preserved] == [("root",), ("root", "after")]
    entry = report.entry("root/bad")
    assert (entry.left_out, entry.size, type(entry.error)) == (amber.LeftOut.ENCODE_FAILED, 0, ValueError)
    assert entry.message == ("its encode callback failed: the encode callback of 'Screen' returned 12 "
                             "(AMBER_CALLBACK_FAILED): ValueError: the model is gone")
    assert report.entry("root/bad/under").left_out == amber.LeftOut.UNDER_LEFT_OUT
    assert report.entry("root/bad/under").message == "an object above it was left out (/root/bad (Screen))"
    assert "  left out /root/bad (Screen): its encode callback failed: " in str(report)
    e.close()

    # The archive holds every other object, with its state.
    e2 = open_engine(Delegate())
    root2 = e2.add_root(Screen(e2, "root"))
    bad2 = root2.add_child(Screen(e2, "bad"))
    under2 = bad2.add_child(Screen(e2, "under"))
    after2 = root2.add_child(Screen(e2, "after"))
    restored = e2.launch()
    assert [(r.path, r.outcome) for r in restored] == [
        (("root",), amber.Outcome.RESTORED), (("root", "bad"), amber.Outcome.LEFT_OUT),
        (("root", "bad", "under"), amber.Outcome.LEFT_OUT), (("root", "after"), amber.Outcome.RESTORED)]
    assert (root2.decoded, after2.decoded, bad2.decoded, under2.decoded) == \
        ({"selectedRow": 1}, {"title": "after"}, None, None)


def test_r28_the_background_transition_reports_too(open_engine, store):  # R28, R23
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "root"))
    root.add_child(Screen(e, "bad")).encode_restorable_state = lambda coder: 1 / 0
    e.launch()
    e.transition(amber.AppState.ACTIVE)
    e.transition(amber.AppState.INACTIVE)
    assert e.transition(amber.AppState.BACKGROUND) is True  # the exception is on the report, not raised
    report = e.last_preservation
    assert report.saved and isinstance(report.entry("root/bad").error, ZeroDivisionError)

    class Raises(Delegate):
        def will_encode(self, engine, coder):
            raise KeyError("no model")
    e.set_delegate(Raises())
    e.transition(amber.AppState.INACTIVE)
    with pytest.raises(KeyError) as info:  # should_save's and will_encode's exceptions are raised
        e.transition(amber.AppState.BACKGROUND)
    assert info.value.amber_preservation.not_saved == amber.NotSaved.FAILED
    assert e.state == amber.AppState.BACKGROUND  # the transition happened all the same


# ---- R29: the log -------------------------------------------------------------------------------

def secret_run(open_engine):
    """A save and a restore of the seeds' case with distinctive values and key names."""
    e = open_engine(Delegate())
    window, _, children = excluded_navigation(e, states=False)
    window.state = {"distinctive-key": 4242424242}
    children[0].state = {"password-key-name": "hunter2-secret-value"}
    assert e.preserve().saved
    e.close()
    e2 = open_engine(Delegate())
    e2.add_root(Screen(e2, "window"))
    return e2.launch()


LEFT_OUT_LINE = ("preserve: left out /window/list (Screen, controller): an ancestor has no restoration identifier "
                 "(/window/(UINavigationController))")


def test_r29_the_amber_logger_receives_every_decision_and_no_secret(open_engine, caplog):  # R29
    caplog.set_level(logging.DEBUG, logger=amber.LOGGER_NAME)  # before the engines open: they take its level
    report = secret_run(open_engine)
    assert not report.fresh
    lines = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert ("amber", "DEBUG", LEFT_OUT_LINE) in lines
    assert any(level == "DEBUG" and m.startswith("preserve: preserved /window (Screen, controller): ")
               for _, level, m in lines)
    assert any(level == "INFO" and m.startswith("preserve: saved 1 objects in ") for _, level, m in lines)
    assert any(level == "INFO" and m.startswith("restore: restored 1 of 1 archived objects") for _, level, m in lines)
    assert any(level == "DEBUG" and m.startswith("restore: /window (Screen, controller): restored")
               for _, level, m in lines)
    for secret in SECRETS:
        assert not [m for _, _, m in lines if secret in m], f"{secret} logged"


def test_r29_the_engine_builds_only_the_lines_of_the_loggers_level(open_engine, caplog):  # R29
    caplog.set_level(logging.WARNING, logger=amber.LOGGER_NAME)
    e = open_engine(Delegate())
    excluded_navigation(e)
    e.preserve()
    assert [r for r in caplog.records if r.name == "amber"] == []
    caplog.set_level(logging.DEBUG, logger=amber.LOGGER_NAME)
    e.preserve()
    # The engine was given warn when it opened: it built no debug or info line, though the
    # logger would take them now...
    assert [r for r in caplog.records if r.name == "amber"] == []
    e.set_log_level()  # ...until asked to read the logger's level again
    e.preserve()
    assert LEFT_OUT_LINE in [r.getMessage() for r in caplog.records]
    caplog.clear()
    e.set_log_level(logging.INFO)  # or given one
    e.preserve()
    assert {r.levelname for r in caplog.records} == {"INFO"}
    amber.set_log_level()  # the process-wide function (engines without their own): the logger's level


def test_r29_amber_log_prints_the_same_line_to_standard_error():  # R29
    out = run_python("""
        import amber
        class D:
            def should_save(self, engine, coder): return True
        with amber.Engine("org.example.log", memory_store=True, delegate=D(),
                          protection=amber.FixedKey(b"k" * 32)) as e:
            window = e.add_root(e.controller("window", "Screen"))
            nav = window.add_child(e.controller(None, "UINavigationController", stack=True))
            for page in ("list", "detail", "edit"):
                nav.add_child(e.controller(page, "Screen",
                                           encode=lambda o, c: c.update({"password-key-name": "hunter2-secret-value"})))
            window.encode_restorable_state = lambda c: c.update({"distinctive-key": 4242424242})
            assert e.preserve().saved
        """, env=dict(package_env(), AMBER_LOG="debug"))
    lines = out.stderr.splitlines()
    assert lines.count(f"amber: debug: {LEFT_OUT_LINE}") == 1, out.stderr
    assert any(line.startswith("amber: info: preserve: saved 1 objects in ") for line in lines), out.stderr
    for secret in SECRETS:
        assert secret not in out.stderr


# ---- R14, R15: discarding, by the host and by a process that died extended ------------------------

SAVE_AND = """
    import sys, amber
    class D:
        def should_save(self, engine, coder): return True
        def should_restore(self, engine, decoder): return True
        def did_decode(self, engine, decoder):
            if sys.argv[2] == "extend":
                engine.extend_restoration()
    with amber.Engine("org.example.discard", state_directory=sys.argv[1], delegate=D()) as e:
        e.add_root(e.controller("root", "Screen"))
        if sys.argv[2] == "save":
            assert e.preserve().saved
        elif sys.argv[2] == "discard":
            e.discard()
        elif sys.argv[2] == "extend":
            report = e.launch()
            assert not report.fresh, report.text
            import os; os._exit(0)  # the process ends before the restoration completes
"""


def run_step(state_dir, step):
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(SAVE_AND), str(state_dir), step],
                         env=package_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def relaunch(state_dir):
    with amber.Engine("org.example.discard", state_directory=str(state_dir), delegate=Delegate()) as e:
        e.add_root(Screen(e, "root"))
        return e.launch()


def test_r14_a_discard_is_reported_by_the_next_process(tmp_path):  # R14
    run_step(tmp_path, "save")
    run_step(tmp_path, "discard")  # another process (the user signed out) discards it
    report = relaunch(tmp_path)
    assert report.fresh_reason == amber.FreshReason.DISCARDED_BY_HOST and report.message
    assert not os.path.exists(tmp_path / "state.archive")


def test_r15_a_process_that_died_while_restoration_was_extended_discards(tmp_path):  # R15, R14
    run_step(tmp_path, "save")
    run_step(tmp_path, "extend")
    report = relaunch(tmp_path)
    assert report.fresh_reason == amber.FreshReason.EXTENSION_UNFINISHED == 10 and report.message
    assert relaunch(tmp_path).fresh_reason == amber.FreshReason.NO_ARCHIVE


# ---- R8, R11 and the tree: the smaller changes ---------------------------------------------------

UIKIT_NAMES = {"bundleVersion": "UIApplicationStateRestorationBundleVersionKey",
               "interfaceIdiom": "UIApplicationStateRestorationUserInterfaceIdiomKey",
               "timestamp": "UIApplicationStateRestorationTimestampKey",
               "systemVersion": "UIApplicationStateRestorationSystemVersionKey"}


def test_r8_the_metadata_is_readable_under_uikits_names(open_engine):  # R8, R9
    e = open_engine(Delegate(), bundle_version="4.2", interface_idiom="desktop")
    e.add_root(Screen(e, "root"))
    e.preserve()
    e.close()
    seen = {}

    class Reads(Delegate):
        def should_restore(self, engine, decoder):
            seen.update({name: decoder[name] for name in list(UIKIT_NAMES) + list(UIKIT_NAMES.values())})
            return True
    assert not open_engine(Reads()).launch().fresh
    for amber_name, uikit_name in UIKIT_NAMES.items():
        assert seen[uikit_name] == seen[amber_name], uikit_name
    assert seen["UIApplicationStateRestorationBundleVersionKey"] == "4.2"
    assert seen["UIApplicationStateRestorationUserInterfaceIdiomKey"] == "desktop"


def test_r11_a_reference_to_a_class_mismatch_decodes_to_the_object_found(open_engine):  # R11, R4
    e = open_engine(Delegate())
    other = e.add_root(Screen(e, "other", {"title": "secret"}, class_name="Secret"))
    e.add_root(Screen(e, "root")).encode_restorable_state = lambda coder: coder.encode_object("ref", other)
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    found = e2.add_root(Screen(e2, "other", class_name="NotSecret"))
    root = e2.add_root(Screen(e2, "root"))
    decoded = {}
    root.decode_restorable_state = lambda decoder: decoded.update(ref=decoder.decode_object("ref"))
    report = e2.launch()
    assert report.outcome("other") == amber.Outcome.CLASS_MISMATCH and found.decoded is None  # kept, not decoded
    assert decoded["ref"] is found and report.records[0].object is found


def test_presenting_over_a_presented_controller_is_refused(open_engine):  # R1
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "root"))
    first, second = Screen(e, "first"), Screen(e, "second")
    root.present(first)
    root.present(first)  # the same again does nothing
    with pytest.raises(amber.MisuseError, match="first"):
        root.present(second)  # as in UIKit: dismiss first, never a silent replacement
    assert second.path_string == "second" and first.path_string == "root/first"  # nothing changed
    root.present(None)
    root.present(second)
    assert second.path_string == "root/second" and first.path_string == "first"
