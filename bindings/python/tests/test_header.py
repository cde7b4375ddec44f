"""The binding against the C header it follows (include/amber.h and include/amber/*.h, C API
0.2): the version numbers and status names written once in amber/common.h, the enum values,
the notification names, the struct versions, every function the binding declares, and the
layout of every struct it shares with C (compiled with the system's C compiler, if there is one).

Skipped where the source tree's headers are not beside the tests."""
import ctypes
import os
import re
import shutil
import subprocess

import pytest

import amber
from amber import _core, _errors, _ffi

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
INCLUDE = os.path.join(ROOT, "include")
HEADERS = [os.path.join(INCLUDE, "amber.h")] + sorted(
    os.path.join(INCLUDE, "amber", name) for name in (os.listdir(os.path.join(INCLUDE, "amber"))
                                                      if os.path.isdir(os.path.join(INCLUDE, "amber")) else ()))

pytestmark = pytest.mark.skipif(not os.path.isfile(os.path.join(INCLUDE, "amber", "common.h")),
                                reason="the C headers (include/amber/*.h) are not beside the tests")


def _text() -> str:
    """The headers' text without comments."""
    text = "\n".join(open(path, encoding="utf-8").read() for path in HEADERS)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _macro(text: str, name: str) -> str:
    match = re.search(rf"#define {name}\s+(.+?)\s*$", text, flags=re.M)
    assert match, name
    return match.group(1)


def _enum_values(text: str) -> dict:
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(AMBER_[A-Z0-9_]+)\s*=\s*(-?\d+)", text)}


def test_versions_match_the_header():
    text = _text()
    major, minor = int(_macro(text, "AMBER_VERSION_MAJOR")), int(_macro(text, "AMBER_VERSION_MINOR"))
    assert (_ffi.ABI_MAJOR, _ffi.ABI_MINOR) == (major, minor)
    number = _ffi.load().amber_version_number()
    assert (number // 1000000, number // 1000 % 1000) == (major, minor)


def test_status_codes_and_names_match_the_header():
    text = _text()
    macro = re.search(r"#define AMBER_STATUS_NAMES((?:[^\n]*\\\n)*[^\n]*)", text).group(1)
    names = "".join(re.findall(r'"([^"]*)"', macro)).split()
    values = _enum_values(text)
    lib = _ffi.load()
    for code, name in enumerate(names):
        assert values[name] == code, name
        assert getattr(_errors, name[len("AMBER_"):]) == code, name
        assert lib.amber_status_string(code).decode() == name
        if code:
            assert _errors.error_for(code, "", name).code == code
    assert len(names) == 1 + max(cls.code for cls in _errors._BY_CODE.values())


def test_enums_match_the_header():
    values = _enum_values(_text())
    prefixes = {amber.Kind: "AMBER_KIND_", amber.Outcome: "AMBER_OUTCOME_", amber.FreshReason: "AMBER_FRESH_",
                amber.NotSaved: "AMBER_NOT_SAVED_", amber.LeftOut: "AMBER_LEFT_OUT_", amber.AppState: "AMBER_APP_",
                amber.Directory: "AMBER_DIRECTORY_"}
    for enum, prefix in prefixes.items():
        for member in enum:
            assert values[prefix + member.name] == member.value, (enum.__name__, member.name)
    header_value_types = {name[len("AMBER_VALUE_"):]: v for name, v in values.items() if name.startswith("AMBER_VALUE_")}
    assert header_value_types == {name[len("VALUE_"):]: getattr(_ffi, name) for name in dir(_ffi)
                                  if name.startswith("VALUE_")}
    assert (_ffi.APP_INACTIVE, _ffi.APP_BACKGROUND) == (values["AMBER_APP_INACTIVE"], values["AMBER_APP_BACKGROUND"])
    protections = {amber.KeyFile: "KEY_FILE", amber.KeyProvider: "KEY_CALLBACK", amber.FixedKey: "FIXED_KEY",
                   amber.NoEncryption: "NONE"}
    for cls, name in protections.items():
        assert values["AMBER_PROTECTION_" + name] == cls.code
    assert [_core._amber_level(level) for level in (10, 20, 30)] == [
        values["AMBER_LOG_DEBUG"], values["AMBER_LOG_INFO"], values["AMBER_LOG_WARN"]]


def test_notification_names_match_the_header():
    text = _text()
    for name in dir(amber.Notifications):
        if name.isupper():
            assert _macro(text, "AMBER_NOTIFICATION_" + name) == f'"{getattr(amber.Notifications, name)}"'


def test_struct_versions_match_the_header():
    text = _text()
    for name in dir(_ffi):
        if name.endswith("_VERSION") and not name.startswith("ABI"):
            assert int(_macro(text, "AMBER_" + name)) == getattr(_ffi, name), name


def test_every_function_the_binding_declares_is_in_the_header():
    declared = set(re.findall(r"\bAMBER_API\b[^;(]*?\b(amber_[a-z0-9_]+)\s*\(", _text()))
    names = [name for name, _, _ in _ffi.FUNCTIONS]
    assert len(names) == len(set(names))
    assert sorted(set(names) - declared) == []


# The binding's structs and the C structs they stand for.
STRUCTS = {"Store": "amber_store", "EngineOptions": "amber_engine_options",
           "ObjectCallbacks": "amber_object_callbacks", "RestorationClass": "amber_restoration_class",
           "BlueprintFactory": "amber_blueprint_factory", "Delegate": "amber_delegate", "Buf": "amber_buf",
           "IndexPath": "amber_index_path", "ReportRecord": "amber_report_record",
           "ReportRecordPointers": "amber_report_record", "RecordInfo": "amber_record_info",
           "PreservationEntry": "amber_preservation_entry", "KeyedValue": "amber_keyed_value",
           "CodingClass": "amber_coding_class"}


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
def test_struct_layouts_match_the_header(tmp_path):
    """Every field of every struct at the offset C puts it, and every struct of C's size."""
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <amber.h>", "int main(void) {"]
    expected = []
    for py, c in STRUCTS.items():
        struct = getattr(_ffi, py)
        lines.append(f'printf("%zu\\n", sizeof({c}));')
        expected.append((f"sizeof {py}", ctypes.sizeof(struct)))
        for name, *_ in struct._fields_:
            lines.append(f'printf("%zu\\n", offsetof({c}, {name}));')
            expected.append((f"{py}.{name}", getattr(struct, name).offset))
    lines.append("return 0; }")
    source = tmp_path / "layout.c"
    source.write_text("\n".join(lines) + "\n")
    subprocess.run(["cc", "-std=c11", "-I", INCLUDE, str(source), "-o", str(tmp_path / "layout")], check=True)
    out = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True, check=True).stdout.split()
    assert [(what, int(c)) for (what, _), c in zip(expected, out)] == expected
