"""A controller preserved through a reference keeps its contents (R4), seen from Python: its
identified views and children are preserved under it as the walk would (R2, R3), and what is
left out there is reported with why (R28). Each test names its rule."""
import amber
from conftest import Delegate, Screen


def test_r4_a_referenced_controller_is_preserved_with_its_contents(open_engine):  # R4, R2, R28
    class Referencing(Delegate):
        def will_encode(self, engine, coder):
            coder["top"] = detail

    e = open_engine(Referencing())
    window = e.add_root(Screen(e, "window"))
    nav = window.add_child(e.controller(None, "UINavigationController", stack=True))
    detail = nav.add_child(Screen(e, "detail", {"title": "d"}))
    detail.add_view(e.view("scroll", "UIScrollView"))
    detail.add_view(e.view(None, "UILabel"))
    detail.add_child(Screen(e, "pane", {"title": "p"}))
    detail.present(Screen(e, "sheet", {"title": "s"}))
    report = e.preserve()
    assert [x.path for x in report.preserved] == [
        ("window",), ("window", "detail"), ("window", "detail", "scroll"), ("window", "detail", "pane"),
        ("window", "detail", "sheet")]
    assert [(x.class_name, x.left_out) for x in report.left_out] == [
        ("UINavigationController", amber.LeftOut.NO_IDENTIFIER), ("UILabel", amber.LeftOut.NO_IDENTIFIER)]
