import os
import sys

import pytest

# The source tree's package, unless run-tests.sh tests the one installed into its venv.
if not os.environ.get("AMBER_TEST_INSTALLED"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import amber  # noqa: E402


def pytest_report_header(config):
    return f"amber package: {os.path.dirname(amber.__file__)}; library: {amber.library_path()}"


class Delegate:
    """A delegate that saves and restores, recording what it was asked."""

    def __init__(self):
        self.calls = []
        self.app = {}

    def should_save(self, engine, coder):
        self.calls.append("should_save")
        coder["appVersion"] = "1.0"
        return True

    def will_encode(self, engine, coder):
        self.calls.append("will_encode")

    def should_restore(self, engine, decoder):
        self.calls.append("should_restore")
        self.app = {k: decoder.get(k) for k in ("bundleVersion", "interfaceIdiom", "timestamp", "systemVersion",
                                                "appVersion")}
        return True

    def did_decode(self, engine, decoder):
        self.calls.append("did_decode")

    def will_finish_launching(self, engine):
        self.calls.append("will_finish_launching")

    def did_finish_launching(self, engine):
        self.calls.append("did_finish_launching")


class Screen(amber.Controller):
    """A controller with a dict of state, written and read back whole."""

    def __init__(self, engine, identifier, state=None, **kw):
        kw.setdefault("class_name", "Screen")
        super().__init__(engine, identifier, **kw)
        self.state = dict(state or {})
        self.decoded = None
        self.finished = False

    def encode_restorable_state(self, coder):
        coder.update(self.state)

    def decode_restorable_state(self, decoder):
        self.decoded = {k: decoder[k] for k in ("selectedRow", "title") if k in decoder}

    def application_finished_restoring(self):
        self.finished = True


class Field(amber.Controller):
    """A controller whose state is one text, "typed", kept in ``text`` when restored."""

    def __init__(self, engine):
        super().__init__(engine, "field", class_name="Field")
        self.text = None

    def encode_restorable_state(self, coder):
        coder["text"] = "typed"

    def decode_restorable_state(self, decoder):
        self.text = decoder["text"]


XDG_VARIABLES = ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR")


@pytest.fixture(autouse=True)
def xdg_directories(tmp_path, monkeypatch):
    """Every test has XDG directories of its own (R27): no file store, key file or application
    directory is made in the real home, also by the subprocesses a test starts (they inherit
    the environment)."""
    base = tmp_path / "xdg"
    for name in XDG_VARIABLES:
        directory = base / name[4:].lower()  # data_home, state_home, ...
        directory.mkdir(parents=True, mode=0o700)
        monkeypatch.setenv(name, str(directory))
    return base


@pytest.fixture
def store():
    return amber.MemoryStore()


@pytest.fixture
def delegate():
    return Delegate()


@pytest.fixture
def open_engine(store):
    """Opens engines on one MemoryStore (a relaunch is a second engine), closed at the end."""
    engines = []

    def make(delegate=None, **kw):
        kw.setdefault("store", store)
        kw.setdefault("protection", amber.FixedKey(b"k" * 32))
        e = amber.Engine("org.example.test", delegate=delegate, **kw)
        engines.append(e)
        return e

    yield make
    for e in engines:
        e.close()


@pytest.fixture
def relaunch():
    """amber.testing.relaunch (R33): a kill and a relaunch in one call; the engines it opens are
    closed at the end of the test."""
    engines = []

    def run(engine, set_up, tear_down=None, **kw):
        relaunched = amber.testing.relaunch(engine, set_up, tear_down, **kw)
        engines.append(relaunched.engine)
        return relaunched

    yield run
    for e in engines:
        e.close()
