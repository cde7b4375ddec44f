"""homepwner — Amber from Python, on the interface of the Homepwner app (as bindings/c/demo).

    python -m amber.examples.homepwner [--state-dir DIR]   # first run: builds the interface, edits
                                                          #   an item, goes to the background
                                                          #   (preserves), quits
    python -m amber.examples.homepwner [--state-dir DIR]   # second run: restores it, prints the tree

The interface (restoration paths in brackets):

  window 1: NavRoot, a navigation stack                      [NavRoot]
              Items, the list of items                       [NavRoot/Items]
              Detail, one item being edited                  [NavRoot/Detail]
            presents NewItemNav modally                      [NavRoot/NewItemNav]
              NewItem, the form for a new item               [NavRoot/NewItemNav/NewItem]
  window 2: Tabs, a container with two children              [Tabs]
              Left, Right                                    [Tabs/Left] [Tabs/Right]
  window 3: a login screen with no restoration identifier: it is left out, and the preservation
            report printed after the save says so (R28).

The screens of window 1 are remade by the restoration class "HomepwnerScreens" (R10 step 1),
those of window 2 by the delegate's object_for_path (R10 step 2). The item store itself (the
host's data) is kept with the keyed archiver in the same directory, saved when the app enters
the background (R24, R25). The default state directory is $XDG_STATE_HOME/org.example.homepwner.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence, Type, TypeVar

import amber

APP_ID = "org.example.homepwner"


# ---- the host's data: BNRItem and the item store, kept with the keyed archiver (R25) ----------

coding = amber.CodingRegistry()


@coding.register("BNRItem")
class Item:
    def __init__(self, key: str, name: str, value: int):
        self.key, self.name, self.value = key, name, value

    def encode_with_coder(self, coder: amber.Archiver) -> None:
        coder["itemKey"] = self.key
        coder["itemName"] = self.name
        coder["valueInDollars"] = self.value

    @classmethod
    def init_with_coder(cls, decoder: amber.Unarchiver) -> "Item":
        return cls(decoder.decode_string("itemKey"), decoder.decode_string("itemName"),
                   decoder.decode_int("valueInDollars"))


def default_items() -> List[Item]:
    return [Item("1C2B-MAT", "Rusty Mat", 12), Item("5D1E-BEAR", "Fluffy Bear", 30),
            Item("7F3A-SPORK", "Shiny Spork", 7)]


# ---- the screens: restorable controllers -------------------------------------------------------

class Screen(amber.Controller):
    """A screen; subclasses write and read their own state."""
    CLASS = "UIViewController"

    def __init__(self, engine: amber.Engine, identifier: Optional[str], restoration_class: Optional[str] = None,
                 stack: bool = False):
        super().__init__(engine, identifier, class_name=self.CLASS, restoration_class=restoration_class,
                         stack=stack)

    def describe(self) -> str:
        return ""


class ItemsScreen(Screen):
    CLASS = "ItemsViewController"
    selected_row = -1

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder["selectedRow"] = self.selected_row

    def decode_restorable_state(self, decoder: amber.Decoder) -> None:
        self.selected_row = decoder.decode_int("selectedRow")

    def describe(self) -> str:
        return f"selectedRow = {self.selected_row}"


class DetailScreen(Screen):
    CLASS = "DetailViewController"
    item_key = ""
    item_name = ""

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder.update({"itemKey": self.item_key, "itemName": self.item_name})

    def decode_restorable_state(self, decoder: amber.Decoder) -> None:
        self.item_key = decoder.decode_string("itemKey")
        self.item_name = decoder.decode_string("itemName")

    def describe(self) -> str:
        return f'itemKey = {self.item_key}, itemName = "{self.item_name}"'


class NewItemScreen(Screen):
    CLASS = "DetailViewController"
    draft_name = ""

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder["draftName"] = self.draft_name

    def decode_restorable_state(self, decoder: amber.Decoder) -> None:
        self.draft_name = decoder.decode_string("draftName")

    def describe(self) -> str:
        return f'draftName = "{self.draft_name}"'


class NavScreen(Screen):
    CLASS = "UINavigationController"


class TabsScreen(Screen):
    CLASS = "UITabBarController"
    selected_tab = 0

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder["selectedTab"] = self.selected_tab

    def decode_restorable_state(self, decoder: amber.Decoder) -> None:
        self.selected_tab = decoder.decode_int("selectedTab")

    def describe(self) -> str:
        return f"selectedTab = {self.selected_tab}"


# identifier -> (screen class, restoration class or None, is a navigation stack)
SCREENS: dict[str, tuple[type[Screen], Optional[str], bool]] = {
    "NavRoot": (NavScreen, "HomepwnerScreens", True),
    "Items": (ItemsScreen, "HomepwnerScreens", False),
    "Detail": (DetailScreen, "HomepwnerScreens", False),
    "NewItemNav": (NavScreen, "HomepwnerScreens", True),
    "NewItem": (NewItemScreen, "HomepwnerScreens", False),
    "Tabs": (TabsScreen, None, False),
    "Left": (ItemsScreen, None, False),
    "Right": (ItemsScreen, None, False),
}


def new_screen(engine: amber.Engine, identifier: str) -> Optional[Screen]:
    """The screen for an identifier, as the restoration class and the delegate make it."""
    if identifier not in SCREENS:
        return None
    return make(SCREENS[identifier][0], engine, identifier)


S = TypeVar("S", bound=Screen)


def make(cls: Type[S], engine: amber.Engine, identifier: str) -> S:
    """A screen of class ``cls`` with the restoration class and stack flag of its identifier."""
    _, restoration_class, stack = SCREENS[identifier]
    return cls(engine, identifier, restoration_class=restoration_class, stack=stack)


# ---- the application delegate ---------------------------------------------------------------

class AppDelegate:
    def should_save(self, engine: amber.Engine, coder: amber.Coder) -> bool:
        coder["appVersion"] = "4.2"  # app-wide state beside the interface (R5)
        return True

    def should_restore(self, engine: amber.Engine, decoder: amber.Decoder) -> bool:
        print(f"  should_restore: archive of bundleVersion {decoder.get('bundleVersion', '?')}, "
              f"appVersion {decoder.get('appVersion', '?')} -> yes")
        return True

    def object_for_path(self, engine: amber.Engine, path: amber.Path, decoder: amber.Decoder) -> Optional[Screen]:
        screen = new_screen(engine, path[-1])  # R10 step 2: window 2's screens
        if screen is not None:
            print(f"  delegate object_for_path makes {path[-1]}")
        return screen

    def will_finish_launching(self, engine: amber.Engine) -> None:
        print("  will_finish_launching")

    def did_finish_launching(self, engine: amber.Engine) -> None:
        print("  did_finish_launching")


def print_tree(objects: Sequence[amber.Object]) -> None:
    for obj in objects:
        path = obj.path
        if path is None:
            print(f"  (no restoration path: not preserved) {obj.class_name}")
            continue
        state = obj.describe() if isinstance(obj, Screen) else ""
        print(f"  {'  ' * (len(path) - 1)}{path} ({obj.class_name})  {state}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--state-dir", help="where the archive, its key and the item store are kept")
    args = parser.parse_args(argv)
    state_dir = args.state_dir or os.path.join(
        os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state"), APP_ID)
    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    items_file = os.path.join(state_dir, "items.archive")
    print(f"Amber {amber.library_version()} ({amber.library_path()})")

    with amber.Engine(APP_ID, state_directory=state_dir, bundle_version="4.2", delegate=AppDelegate()) as engine:
        @engine.register_restoration_class("HomepwnerScreens")
        def make_screen(engine: amber.Engine, path: amber.Path, decoder: amber.Decoder) -> Optional[Screen]:
            # R10 step 1: window 1's screens
            print(f"  restoration class HomepwnerScreens makes {path[-1]}")
            return new_screen(engine, path[-1])

        try:
            with amber.Unarchiver.open(items_file, coding) as u:
                items: List[Item] = u.decode_object_array("items", [Item])
        except KeyError:
            items = default_items()

        @engine.observe(amber.Notifications.DID_ENTER_BACKGROUND)
        def save_items(note: amber.Notification) -> None:  # the host's own data, saved before preserving
            with amber.Archiver(coding) as a:
                a.encode_object_array("items", items)
                a.write_file(items_file)

        print(f"launching from {state_dir}/state.archive")
        report: amber.Report
        report = engine.launch()
        if not report.fresh:
            print("restored tree:")
            print_tree(report.restored)
            print(f"report, {len(report)} records:")
            for record in report:
                print(f"  {record.path_string}: {record.outcome.name.lower().replace('_', ' ')}"
                      + (f" - {record.message}" if record.message else ""))
            print(f"restored {len(report.restored)} of {len(report)} archived objects")
            print(f"item store: {', '.join(f'{i.name} (${i.value})' for i in items)}")
            print("(run again for a fresh launch: Amber discards the archive once it has restored it, R14)")
            engine.transition(amber.AppState.ACTIVE)
            return 0 if len(report.restored) == len(report) else 1

        print(f"fresh launch ({report.fresh_reason.name.lower()}): building the default interface")
        nav = engine.add_root(make(NavScreen, engine, "NavRoot"))
        items_screen = nav.add_child(make(ItemsScreen, engine, "Items"))
        items_screen.selected_row = 2                      # the user taps row 2, Shiny Spork
        detail = nav.add_child(make(DetailScreen, engine, "Detail"))
        detail.item_key, detail.item_name = items[2].key, items[2].name + " (edited)"
        items[2].name = detail.item_name                   # ...and edits its name
        new_item_nav = make(NavScreen, engine, "NewItemNav")  # taps "+": a modal form
        new_item = new_item_nav.add_child(make(NewItemScreen, engine, "NewItem"))
        new_item.draft_name = "Lamp"
        nav.present(new_item_nav)
        tabs = engine.add_root(make(TabsScreen, engine, "Tabs"))  # window 2
        left, right = tabs.add_child(make(ItemsScreen, engine, "Left")), tabs.add_child(make(ItemsScreen, engine, "Right"))
        tabs.selected_tab, right.selected_row = 1, 5
        login = engine.add_root(engine.controller(None, "LoginViewController"))  # window 3: left out (R2)

        engine.transition(amber.AppState.ACTIVE)
        engine.transition(amber.AppState.INACTIVE)
        saved = engine.transition(amber.AppState.BACKGROUND)  # preserves (R23)
        print(f"entered the background: {'preserved' if saved else 'NOT preserved'} into {state_dir}/state.archive")
        # What was saved, with sizes, and what was left out and why (R28): the login screen.
        print("preservation report:")
        for line in str(engine.last_preservation).split("\n"):
            print(f"  {line}")
        print_tree([nav, items_screen, detail, new_item_nav, new_item, tabs, left, right, login])
        engine.transition(amber.AppState.NOT_RUNNING)        # terminate
        print("quit. Run again to see the interface restored.")
        return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main())
