"""The binding against the C header it follows (include/amber.h and include/amber/*.h, C API
0.2): the version numbers and status names written once in amber/common.h, the enum values and
flag bits, the notification names, the struct versions; the same functions in the header and in
_ffi.FUNCTIONS, each with the same number and kind of arguments and result, a status exactly
where the header returns one; every callback prototype; every struct's members by name, and by
offset (compiled with the system's C compiler, if there is one); and every header function
called by the binding.

Skipped where the source tree's headers are not beside the tests."""
import ast
import ctypes
import os
import re
import shutil
import subprocess

import pytest

import amber
from amber import _errors, _ffi, log

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
                amber.Directory: "AMBER_DIRECTORY_", amber.ViewKind: "AMBER_VIEW_", amber.Migration: "AMBER_MIGRATION_"}
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
    assert [log.amber_level(level) for level in (10, 20, 30)] == [
        values["AMBER_LOG_DEBUG"], values["AMBER_LOG_INFO"], values["AMBER_LOG_WARN"]]


def test_view_field_bits_match_the_header():  # R17
    bits = {m.group(1): 1 << int(m.group(2))
            for m in re.finditer(r"#define AMBER_VIEW_FIELD_(\w+)\s+\(1u << (\d+)\)", _text())}
    assert bits == {member.name: member.value for member in amber.ViewField}
    state_fields = set(amber.ViewState.MEMBERS)
    assert state_fields == {name.lower() for name in bits}


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


# ---- functions --------------------------------------------------------------------------------

def _split_params(params: str) -> list:
    """A parameter list split at its top-level commas; "void" is none."""
    parts, depth, current = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip() and current.strip() != "void":
        parts.append(current.strip())
    return parts


def parse_functions() -> dict:
    """name -> (return declaration, [parameter declarations]) of every AMBER_API function."""
    found = {}
    for m in re.finditer(r"AMBER_API\s+(?P<ret>[^;(]*?)\b(?P<name>amber_\w+)\s*\((?P<params>.*?)\)\s*;", _text(),
                         flags=re.S):
        found[m.group("name")] = (" ".join(m.group("ret").split()), _split_params(m.group("params")))
    return found


def _enum_types() -> set:
    return set(re.findall(r"typedef enum \w+ \{.*?\}\s*(\w+)\s*;", _text(), flags=re.S))


def classify(decl: str):
    """The ABI kind of a C declaration: ('i', 4) for int-sized integers and enums, ('i', 8) for
    64-bit and size_t, ('f', 8) for double, ('p', 8) for any pointer, None for void."""
    decl = " ".join(decl.replace("const", " ").split())
    if "*" in decl or "(" in decl or "[" in decl:
        return ("p", 8)
    base = decl.split()[0] if decl else decl
    if base in re.findall(r"typedef \w+ \(\*(\w+)\)", _text()):  # a function pointer type
        return ("p", 8)
    if base == "void":
        return None
    if base in ("int", "unsigned", "uint32_t") or base in _enum_types():
        return ("i", 4)
    if base in ("size_t", "int64_t", "uint64_t"):
        return ("i", 8)
    if base == "double":
        return ("f", 8)
    raise AssertionError(f"unclassified C type {decl!r}")


def classify_ctypes(t):
    """The same ABI kind for a ctypes type."""
    if t is None:
        return None
    if t in (ctypes.c_char_p,) or issubclass(t, (ctypes.c_void_p, ctypes._Pointer, ctypes._CFuncPtr)):
        return ("p", 8)
    if t is ctypes.c_double:
        return ("f", 8)
    if issubclass(t, ctypes._SimpleCData):
        return ("i", ctypes.sizeof(t))
    raise AssertionError(f"unclassified ctypes type {t!r}")


# The functions returning an int that is no status: a value, a flag or an enum.
# amber_error_set returns its argument, not a status of its own.
NOT_STATUS = {"amber_version_number", "amber_error_last_code", "amber_error_set"}


def test_header_and_binding_declare_the_same_functions():
    header = set(parse_functions())
    names = [proto.name for proto in _ffi.FUNCTIONS]
    assert len(names) == len(set(names)) and len(header) == 132  # 110 in 0.2.0; R30-R35 thirteen; amber_error_set; R3's positions four; dates and index paths four
    assert sorted(header - set(names)) == [] and sorted(set(names) - header) == []


def test_argument_and_result_kinds_match():
    header = parse_functions()
    enums = _enum_types()
    for proto in _ffi.FUNCTIONS:
        ret, params = header[proto.name]
        assert [classify(p) for p in params] == [classify_ctypes(t) for t in proto.argtypes], proto.name
        assert classify(ret) == classify_ctypes(proto.restype), proto.name
        is_status = ret == "int" and proto.name not in NOT_STATUS and not proto.name.endswith("_contains")
        assert proto.status == is_status, proto.name
        assert ret.split()[-1] not in enums or not proto.status, proto.name  # enum getters are no status


# ---- callbacks and structs --------------------------------------------------------------------

def parse_structs() -> dict:
    """name -> [(member name, declaration)] of every typedef struct with members."""
    structs = {}
    for m in re.finditer(r"typedef struct (\w+) \{(.*?)\}\s*\1\s*;", _text(), flags=re.S):
        members = []
        for decl in m.group(2).split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            fn = re.match(r"(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", decl)
            if fn:
                members.append((fn.group(2), decl))
                continue
            base, names = re.match(r"(.*?\W)(\w+(?:\s*,\s*\w+)*)$", decl).groups()
            if "," in names and "*" not in base:
                for name in names.split(","):
                    members.append((name.strip(), f"{base} {name.strip()}"))
            else:
                members.append((names.strip(), decl))
        structs[m.group(1)] = members
    return structs


# The binding's structs and the C structs they stand for: every struct of the header.
STRUCTS = {"Store": "amber_store", "EngineOptions": "amber_engine_options",
           "ObjectCallbacks": "amber_object_callbacks", "RestorationClass": "amber_restoration_class",
           "BlueprintFactory": "amber_blueprint_factory", "Delegate": "amber_delegate", "Buf": "amber_buf",
           "IndexPath": "amber_index_path", "ReportRecord": "amber_report_record", "RecordInfo": "amber_record_info",
           "PreservationEntry": "amber_preservation_entry", "KeyedValue": "amber_keyed_value",
           "CodingClass": "amber_coding_class", "Point": "amber_point", "Size": "amber_size", "Rect": "amber_rect",
           "Insets": "amber_insets", "Transform": "amber_transform", "Range": "amber_range",
           "WebPage": "amber_web_page", "ViewState": "amber_view_state", "ViewAccessors": "amber_view_accessors",
           "ModelAssociation": "amber_model_association", "Autosave": "amber_autosave", "Relaunch": "amber_relaunch"}


def test_every_header_struct_has_its_binding_struct_with_the_same_members():
    structs = parse_structs()
    assert set(structs) == set(STRUCTS.values())
    for py, c in STRUCTS.items():
        assert [name for name, *_ in getattr(_ffi, py)._fields_] == [name for name, _ in structs[c]], py


def test_callback_prototypes_match():
    """Every function-pointer member of every struct against the CFUNCTYPE of the binding's."""
    structs = parse_structs()
    checked = 0
    for py, c in STRUCTS.items():
        fields = dict((name, t) for name, t, *_ in getattr(_ffi, py)._fields_)
        for name, decl in structs[c]:
            fn = re.match(r"(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", decl)
            if not fn:
                continue
            proto = fields[name]
            assert issubclass(proto, ctypes._CFuncPtr), (py, name)
            params = _split_params(fn.group(3))
            assert [classify(p) for p in params] == [classify_ctypes(t) for t in proto._argtypes_], (py, name)
            assert classify(fn.group(1)) == classify_ctypes(proto._restype_ if proto._restype_ is not None
                                                            else None), (py, name)
            checked += 1
    assert checked >= 25
    # The callbacks given as function arguments: ctx_free and the log function.
    log_fn = re.search(r"typedef void \(\*amber_log_fn\)\((.*?)\);", _text()).group(1)
    assert [classify(p) for p in _split_params(log_fn)] == [classify_ctypes(t) for t in _ffi.LogFn._argtypes_]
    migrate = re.search(r"typedef int \(\*amber_migrate_fn\)\((.*?)\);", _text(), flags=re.S).group(1)
    assert [classify(p) for p in _split_params(migrate)] == [classify_ctypes(t) for t in _ffi.Migrate._argtypes_]
    entry = re.search(r"typedef int \(\*amber_plugin_entry\)\((.*?)\);", _text()).group(1)
    assert [classify(p) for p in _split_params(entry)] == [classify_ctypes(t) for t in _ffi.PluginEntry._argtypes_]


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


# ---- coverage ---------------------------------------------------------------------------------

def test_every_header_function_is_called_by_the_binding():
    """Each function of the header appears as a call ``<library>.amber_<name>(...)`` in the
    package's modules (the prototype table's names are strings, and do not count)."""
    package = os.path.dirname(os.path.abspath(amber.__file__))
    called = set()
    for name in os.listdir(package):
        if name.endswith(".py"):
            tree = ast.parse(open(os.path.join(package, name), encoding="utf-8").read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr.startswith("amber_"):
                    called.add(node.func.attr)
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute) and \
                        node.value.attr.startswith("amber_"):
                    called.add(node.value.attr)  # fn = lib.amber_x, then called in a loop
    assert sorted(set(parse_functions()) - called) == []
