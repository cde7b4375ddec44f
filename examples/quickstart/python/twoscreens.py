"""A two-screen app: a list with a selected row, a detail screen with a scroll offset.
Run it twice with the same state directory: the first run saves, the second restores."""
import sys

import amber


class ListScreen(amber.Controller):
    selected_row = -1

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder["selectedRow"] = self.selected_row

    def decode_restorable_state(self, decoder: amber.Decoder) -> None:
        self.selected_row = decoder.decode_int("selectedRow")


class DetailScreen(amber.Controller):
    scroll_offset = 0.0

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder["scrollOffset"] = self.scroll_offset

    def decode_restorable_state(self, decoder: amber.Decoder) -> None:
        self.scroll_offset = decoder.decode_float("scrollOffset")


class Delegate:
    def should_save(self, engine: amber.Engine, coder: amber.Coder) -> bool:
        return True

    def should_restore(self, engine: amber.Engine, decoder: amber.Decoder) -> bool:
        return True


state_dir = sys.argv[1] if len(sys.argv) > 1 else None  # None: $XDG_STATE_HOME/<app-id>
with amber.Engine("org.example.twoscreens", state_directory=state_dir, delegate=Delegate()) as engine:
    # The default interface, built before the launch: restoration finds these by path.
    nav = engine.add_root(engine.controller("Nav", "NavigationController"))
    lst = nav.add_child(ListScreen(engine, "List", class_name="ListController"))
    detail = nav.add_child(DetailScreen(engine, "Detail", class_name="DetailController"))

    report = engine.launch()  # restores, and consumes the archive
    print(report)             # what was restored, and why not
    print(f"row {lst.selected_row}, offset {detail.scroll_offset}")

    lst.selected_row += 1     # the user picks the next row...
    detail.scroll_offset += 40  # ...and scrolls its detail
    print(engine.preserve())  # what was saved, and what was left out and why
