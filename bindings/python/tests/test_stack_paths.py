"""Every stack position in a path (R3), seen from Python: the child X of the first A of a
navigation stack and the child X of the second A are told apart in the preservation report, in
a live object's path, in what a restoration class and the delegate are given, and in the
restoration report (R10, R16, R28). Each test names its rule."""
import amber
from conftest import Delegate, Screen


def two_screens(e):
    """nav (a stack) -> A -> X, A -> X; each X saves which it is and names the class Panels."""
    nav = e.add_root(Screen(e, "nav", stack=True))
    xs = []
    for which in ("first", "second"):
        a = nav.add_child(Screen(e, "A"))
        xs.append(a.add_child(Screen(e, "X", {"title": which}, class_name="Panel", restoration_class="Panels")))
    return nav, xs


def test_r3_a_path_carries_every_position():  # R3
    first = amber.Path(("nav", "A", "X"))
    second = amber.Path(("nav", "A", "X"), positions=(0, 1, 0))
    assert first != second and hash(first) != hash(second)
    assert second.positions == (0, 1, 0) and second.position == 0
    assert first.positions == (0, 0, 0) and first == ("nav", "A", "X")
    assert str(first) == "nav/A/X" and str(second) == "nav/A[1]/X"
    assert amber.Path.parse("nav/A[1]/X") == second
    assert amber.Path(("nav", "A"), 1).positions == (0, 1)  # the position of the last, as in 0.2


def test_r28_the_preservation_report_and_live_paths_tell_the_two_apart(open_engine):  # R3, R28
    e = open_engine(Delegate())
    _, xs = two_screens(e)
    assert [x.path_string for x in xs] == ["nav/A/X", "nav/A[1]/X"]
    assert [x.path.positions for x in xs] == [(0, 0, 0), (0, 1, 0)]
    report = e.preserve()
    panels = [x for x in report.preserved if x.class_name == "Panel"]
    assert [x.path.positions for x in panels] == [(0, 0, 0), (0, 1, 0)]
    assert panels[0].path != panels[1].path
    assert report.entry("nav/A[1]/X") == panels[1]
    assert sorted(x.path.positions for x in report.largest if x.class_name == "Panel") == [(0, 0, 0), (0, 1, 0)]


def test_r10_lookup_callbacks_and_the_report_tell_the_two_apart(open_engine):  # R10, R16
    e = open_engine(Delegate())
    two_screens(e)
    e.preserve()
    e.close()

    asked = []

    class Finder(Delegate):
        def object_for_path(self, engine, path, decoder):
            if len(path) == 1:
                return None  # the stack is found where it is
            asked.append(("delegate", path))
            return Screen(engine, path[-1])

    e2 = open_engine(Finder())
    e2.add_root(Screen(e2, "nav", stack=True))
    made = []

    @e2.register_restoration_class("Panels")
    def panels(engine, path, decoder):
        asked.append(("class", path))
        made.append(Screen(engine, path[-1], class_name="Panel"))
        return made[-1]
    report = e2.launch()
    assert asked == [("delegate", amber.Path(("nav", "A"))), ("class", amber.Path(("nav", "A", "X"))),
                     ("delegate", amber.Path(("nav", "A"), 1)),
                     ("class", amber.Path(("nav", "A", "X"), positions=(0, 1, 0)))]
    assert [m.decoded for m in made] == [{"title": "first"}, {"title": "second"}]
    records = [r for r in report if r.class_name == "Panel"]
    assert [r.path.positions for r in records] == [(0, 0, 0), (0, 1, 0)]
    assert [r.outcome for r in report] == [amber.Outcome.RESTORED] * 5
    assert report.outcome("nav/A[1]/X") == amber.Outcome.RESTORED
    assert "/nav/A[1]/X" in report.text
    assert [m.path_string for m in made] == ["nav/A/X", "nav/A[1]/X"]  # placed where their records were
