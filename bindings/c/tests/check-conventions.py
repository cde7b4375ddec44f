#!/usr/bin/env python3
"""Checks that every function of the C API follows the conventions amber.h's preamble states, so
that the headers cannot drift from their own rules (issue 41, item 2):

1. every amber_*() a header's comment names is declared;
2. out-parameters (out, out_*: an array filled in place and its `capacity` count as one) come
   first;
3. a function that takes a context for callbacks takes its ctx_free too, unless its comment says
   the callbacks are called only during this call;
4. text and bytes given through an out-parameter come in an amber_buf, unless the comment says
   they are borrowed for as long as a handle or a callback lives (a decoder's value until its
   callback returns), never "until the next call".

Usage: bindings/c/tests/check-conventions.py [HEADER...]   (default: include/amber.h,
include/amber/*.h and the GTK adapter's bindings/gtk/amber-gtk.h, whose functions are declared
without AMBER_API). Prints a line per rule broken and a summary; exits 1 if any is.
"""
import glob
import re
import sys


def split_parameters(text):
    """The parameters of a prototype's list, split at the commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return parts + ([current.strip()] if current.strip() else [])


def parameter_name(parameter):
    pointer_to_function = re.search(r"\(\s*\*\s*(\w+)\s*\)", parameter)
    if pointer_to_function:
        return pointer_to_function.group(1)
    match = re.search(r"(\w+)\s*(\[[^\]]*\])?$", parameter)
    return match.group(1) if match else parameter


# A declaration: its doc comment, if one comes just before it, then at the start of a line
# AMBER_API (an adapter's header, amber-gtk.h, has none), the result type, the name and the
# parameters. Starting at a line's start keeps out the examples in comments (" *     amber_...")
# and typedefs of callbacks.
DECLARATION = re.compile(
    r"(/\*\*(?:(?!\*/).)*\*/)?\s*^(?:AMBER_API\s+)?(?!typedef\b|return\b)[A-Za-z_][\w \t*]*?\b(amber_\w+)\s*\(([^;{]*?)\);",
    flags=re.S | re.M)


def declarations(paths):
    """Each function: (name, parameters, the comment just before it, the header)."""
    for path in paths:
        text = open(path, encoding="utf-8").read()
        for match in DECLARATION.finditer(text):
            yield match.group(2), split_parameters(" ".join(match.group(3).split())), match.group(1) or "", path


def main(argv):
    paths = argv or ["include/amber.h"] + sorted(glob.glob("include/amber/*.h")) + ["bindings/gtk/amber-gtk.h"]
    functions = {name: (params, comment, path) for name, params, comment, path in declarations(paths)}
    problems = []

    for path in paths:
        text = open(path, encoding="utf-8").read()
        for comment in re.findall(r"/\*.*?\*/", text, flags=re.S):
            for name in sorted(set(re.findall(r"\b(amber_\w+)\(\)", comment))):
                if name not in functions:
                    problems.append(f"{path}: a comment names {name}(), which no header declares")

    for name, (params, comment, path) in sorted(functions.items()):
        names = [parameter_name(p) for p in params]
        outs = [n == "out" or n.startswith("out_") or n == "capacity" for n in names]
        if True in outs and False in outs[:max(i for i, o in enumerate(outs) if o)]:
            problems.append(f"{path}: {name}: out-parameters come first ({', '.join(names)})")
        if "ctx" in names and "ctx_free" not in names and "only during this call" not in comment:
            problems.append(f"{path}: {name}: takes ctx for callbacks it keeps, without ctx_free")
        for param, pname in zip(params, names):
            gives_bytes = re.search(r"\b(char|uint8_t)\s*\*\s*\*", param) and "*const" not in param
            lent = "borrowed" in comment and "next call" not in comment
            if (pname == "out" or pname.startswith("out_")) and gives_bytes and not lent:
                problems.append(f"{path}: {name}: gives text or bytes through {pname}, not in an amber_buf")

    for problem in problems:
        print("FAIL  " + problem)
    if not problems:
        print(f"ok    the {len(functions)} functions of the headers follow amber.h's conventions")
    print(f"{0 if problems else 1} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
