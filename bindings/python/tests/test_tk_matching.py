"""amber.tk._matching: which saved state an unnamed window takes (issue 40, docs/behaviour.md,
"Unnamed windows in the adapters"), without a display: the rule itself, and an index read from
a damaged archive. The real windows are test_tk.py's ``test_two_unnamed_windows_*``."""
import pytest

pytest.importorskip("tkinter")
from amber.tk._matching import COUNT_KEY, UnnamedWindows  # noqa: E402


class FakeDecoder:
    """The application decoder as ``UnnamedWindows.read`` uses it: ``get(key, default)``."""

    def __init__(self, values):
        self.values = values

    def get(self, key, default=None):
        return self.values.get(key, default)


def saved(*windows):
    index = UnnamedWindows()
    values = {COUNT_KEY: len(windows)}
    for i, (identifier, title) in enumerate(windows):
        values[f"tk.unnamed-window.{i}.identifier"] = identifier
        values[f"tk.unnamed-window.{i}.title"] = title
    index.read(FakeDecoder(values))
    return index


def test_titles_go_first_for_all_so_a_window_by_order_never_takes_one_another_title_matched():
    index = saved((".Toplevel#1", "a.txt"), (".Toplevel#2", "b.txt"))
    # The first window's title matches nothing: by order it would take #1, but b.txt's title
    # matched #2 first, and a.txt's #1 is the one left.
    unmatched, by_title = index.match([(".Toplevel", "c.txt"), (".Toplevel", "b.txt")], {"."})
    assert (by_title.identifier, by_title.why) == (".Toplevel#2", None)
    assert unmatched.identifier == ".Toplevel#1"
    assert unmatched.why == "no window of its type was saved with its title 'c.txt'"


def test_a_title_of_two_saved_windows_or_none_falls_back_to_the_order_and_says_why():
    index = saved((".Toplevel#1", "Editor"), (".Toplevel#2", "Editor"))
    first, second = index.match([(".Toplevel", "Editor"), (".Toplevel", "")], set())
    assert first.identifier == ".Toplevel#1" and first.why == "2 windows of its type were saved with its title 'Editor'"
    assert second.identifier == ".Toplevel#2" and second.why == "it has no title"
    assert index.reported(first) and index.reported(second)


def test_a_window_of_another_group_never_takes_the_state():
    index = saved((".Toplevel#1", "a.txt"))
    match = index.match([(".Dialog", "a.txt")], set())[0]
    assert match.identifier == ".Dialog#1" and not match.saved


def test_a_late_window_takes_only_a_kept_record_and_one_window_alone_gets_no_line():
    not_kept = saved((".Toplevel#1", "a.txt")).match_late(".Toplevel", "a.txt", set(), lambda identifier: False)
    assert not_kept.why == "no window of its type was saved with its title 'a.txt'"
    index = saved((".Toplevel#1", "a.txt"))
    match = index.match_late(".Toplevel", "a.txt", set(), lambda identifier: True)
    assert match.identifier == ".Toplevel#1" and match.why is None and match.saved
    assert not index.reported(match)  # its type had one window saved: nothing to choose


@pytest.mark.parametrize("values", [
    {COUNT_KEY: "three"}, {COUNT_KEY: -4}, {COUNT_KEY: 10 ** 12},
    {COUNT_KEY: 2, "tk.unnamed-window.0.identifier": 7, "tk.unnamed-window.1.title": b"x"},
    {COUNT_KEY: 1, "tk.unnamed-window.0.identifier": ".Toplevel#1", "tk.unnamed-window.0.title": 3.5},
])
def test_a_damaged_index_reads_what_fits_and_nothing_else(values):
    index = UnnamedWindows()
    index.read(FakeDecoder(values))
    assert all(isinstance(window.identifier, str) and isinstance(window.title, str) for window in index.saved)
    assert len(index.saved) <= 1
